/* SPDX-License-Identifier: MIT */
/* lx_emul: kernel memory allocation (linux/slab.h, gfp.h, vmalloc.h, devm_k*alloc).
 * Every allocation is accounted with its call site (function and KBUILD_MODNAME); live
 * allocations at the end of a run are reported as leaks (lx_kit/lx_emul_api.h). kmalloc(0)
 * returns ZERO_SIZE_PTR like the kernel. kfree of a pointer that is not a live allocation stops
 * the run. devm_* allocations belong to a struct device and are freed by
 * lx_emul_devres_release_all(dev) (called by the device emulation at unbind/teardown). */
#ifndef LX_EMUL_MM_H
#define LX_EMUL_MM_H

#include <stdarg.h>

#include <lx_emul/types.h>

#define ___GFP_DMA 0x01u
#define ___GFP_HIGHMEM 0x02u
#define ___GFP_DMA32 0x04u
#define ___GFP_ZERO 0x100u
#define ___GFP_ATOMIC 0x200u
#define ___GFP_HIGH 0x20u
#define ___GFP_IO 0x40u
#define ___GFP_FS 0x80u
#define ___GFP_NOWARN 0x2000u
#define ___GFP_RETRY_MAYFAIL 0x4000u
#define ___GFP_NOFAIL 0x8000u
#define ___GFP_DIRECT_RECLAIM 0x400u
#define ___GFP_KSWAPD_RECLAIM 0x800u
#define __GFP_DMA ((gfp_t)___GFP_DMA)
#define __GFP_DMA32 ((gfp_t)___GFP_DMA32)
#define __GFP_HIGHMEM ((gfp_t)___GFP_HIGHMEM)
#define __GFP_ZERO ((gfp_t)___GFP_ZERO)
#define __GFP_ATOMIC ((gfp_t)___GFP_ATOMIC)
#define __GFP_HIGH ((gfp_t)___GFP_HIGH)
#define __GFP_IO ((gfp_t)___GFP_IO)
#define __GFP_FS ((gfp_t)___GFP_FS)
#define __GFP_NOWARN ((gfp_t)___GFP_NOWARN)
#define __GFP_RETRY_MAYFAIL ((gfp_t)___GFP_RETRY_MAYFAIL)
#define __GFP_NOFAIL ((gfp_t)___GFP_NOFAIL)
#define __GFP_DIRECT_RECLAIM ((gfp_t)___GFP_DIRECT_RECLAIM)
#define __GFP_KSWAPD_RECLAIM ((gfp_t)___GFP_KSWAPD_RECLAIM)
#define __GFP_RECLAIM (__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define GFP_ATOMIC (__GFP_HIGH | __GFP_ATOMIC | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL (__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_NOWAIT (__GFP_KSWAPD_RECLAIM)
#define GFP_NOIO (__GFP_RECLAIM)
#define GFP_NOFS (__GFP_RECLAIM | __GFP_IO)
#define GFP_USER GFP_KERNEL
#define GFP_DMA __GFP_DMA
#define GFP_DMA32 __GFP_DMA32
#define gfpflags_allow_blocking(gfp) (!!((gfp)&__GFP_DIRECT_RECLAIM))

#define ZERO_SIZE_PTR ((void*)16)
#define ZERO_OR_NULL_PTR(x) ((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

struct device;

void* lx_emul_kmalloc(size_t size, gfp_t flags, const char* func, const char* mod);
void* lx_emul_kmalloc_array(size_t n, size_t size, gfp_t flags, const char* func, const char* mod);
void* lx_emul_krealloc(const void* p, size_t new_size, gfp_t flags, const char* func,
                       const char* mod);
void* lx_emul_kmemdup(const void* src, size_t len, gfp_t gfp, const char* func, const char* mod);
char* lx_emul_kstrdup(const char* s, gfp_t gfp, const char* func, const char* mod);
char* lx_emul_kstrndup(const char* s, size_t max, gfp_t gfp, const char* func, const char* mod);
char* lx_emul_kvasprintf(gfp_t gfp, const char* func, const char* mod, const char* fmt,
                         va_list ap) __attribute__((format(printf, 4, 0)));
char* lx_emul_kasprintf(gfp_t gfp, const char* func, const char* mod, const char* fmt, ...)
    __printf(4, 5);
void kfree(const void* p);
void kfree_sensitive(const void* p);
size_t ksize(const void* p);

#define kmalloc(size, flags) lx_emul_kmalloc((size), (flags), __func__, LX_EMUL_MODNAME)
#define kzalloc(size, flags) lx_emul_kmalloc((size), (flags) | __GFP_ZERO, __func__, LX_EMUL_MODNAME)
#define kmalloc_array(n, size, flags)                                                              \
    lx_emul_kmalloc_array((n), (size), (flags), __func__, LX_EMUL_MODNAME)
#define kcalloc(n, size, flags)                                                                    \
    lx_emul_kmalloc_array((n), (size), (flags) | __GFP_ZERO, __func__, LX_EMUL_MODNAME)
#define krealloc(p, size, flags) lx_emul_krealloc((p), (size), (flags), __func__, LX_EMUL_MODNAME)
#define krealloc_array(p, n, size, flags)                                                          \
    lx_emul_krealloc((p), (n) * (size), (flags), __func__, LX_EMUL_MODNAME)
#define kmemdup(src, len, gfp) lx_emul_kmemdup((src), (len), (gfp), __func__, LX_EMUL_MODNAME)
#define kstrdup(s, gfp) lx_emul_kstrdup((s), (gfp), __func__, LX_EMUL_MODNAME)
#define kstrndup(s, max, gfp) lx_emul_kstrndup((s), (max), (gfp), __func__, LX_EMUL_MODNAME)
#define kasprintf(gfp, fmt, ...) lx_emul_kasprintf((gfp), __func__, LX_EMUL_MODNAME, fmt, ##__VA_ARGS__)
#define kvasprintf(gfp, fmt, ap) lx_emul_kvasprintf((gfp), __func__, LX_EMUL_MODNAME, fmt, ap)
#define kmalloc_node(size, flags, node) kmalloc(size, flags)
#define kzalloc_node(size, flags, node) kzalloc(size, flags)
#define kvmalloc(size, flags) kmalloc(size, flags)
#define kvzalloc(size, flags) kzalloc(size, flags)
#define kvcalloc(n, size, flags) kcalloc(n, size, flags)
#define kvmalloc_array(n, size, flags) kmalloc_array(n, size, flags)
#define kvfree(p) kfree(p)
#define vmalloc(size) kmalloc(size, GFP_KERNEL)
#define vzalloc(size) kzalloc(size, GFP_KERNEL)
#define vfree(p) kfree(p)

/* Device-managed allocations. */
void* lx_emul_devm_kmalloc(struct device* dev, size_t size, gfp_t gfp, const char* func,
                           const char* mod);
void devm_kfree(struct device* dev, const void* p);
void lx_emul_devres_release_all(struct device* dev);
#define devm_kmalloc(dev, size, gfp) lx_emul_devm_kmalloc((dev), (size), (gfp), __func__, LX_EMUL_MODNAME)
#define devm_kzalloc(dev, size, gfp)                                                               \
    lx_emul_devm_kmalloc((dev), (size), (gfp) | __GFP_ZERO, __func__, LX_EMUL_MODNAME)
#define devm_kcalloc(dev, n, size, gfp) devm_kzalloc((dev), (n) * (size), (gfp))
#define devm_kmalloc_array(dev, n, size, gfp) devm_kmalloc((dev), (n) * (size), (gfp))
void* lx_emul_devm_kmemdup(struct device* dev, const void* src, size_t len, gfp_t gfp,
                           const char* func, const char* mod);
#define devm_kmemdup(dev, src, len, gfp)                                                           \
    lx_emul_devm_kmemdup((dev), (src), (len), (gfp), __func__, LX_EMUL_MODNAME)
char* lx_emul_devm_kstrdup(struct device* dev, const char* s, gfp_t gfp, const char* func,
                           const char* mod);
#define devm_kstrdup(dev, s, gfp) lx_emul_devm_kstrdup((dev), (s), (gfp), __func__, LX_EMUL_MODNAME)

/* Marks an allocation as owned by the emulation (not reported as a driver leak). */
void lx_emul_mem_set_owner_internal(const void* p);

#endif /* LX_EMUL_MM_H */
