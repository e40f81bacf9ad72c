// SPDX-License-Identifier: MIT
/* lx_emul: accounted kernel allocations (see lx_emul/mm.h). Each block carries a header with its
 * size and call site and sits on a live list, so leaks and bad frees can be named. */
#include <stdlib.h>

#include "internal.h"

#include <lx_emul/irq.h>
#include <lx_emul/mm.h>
#include <lx_kit/lx_emul_api.h>

#define HDR_MAGIC_LIVE 0x6b6d616c6c6f6321ull /* "kmalloc!" */
#define HDR_MAGIC_FREED 0x6672656564646464ull

struct alloc_hdr {
    u64 magic;
    size_t size;
    const char* func;
    const char* mod;
    struct device* devm_owner;
    struct alloc_hdr* prev;
    struct alloc_hdr* next;
    u64 internal;
}; /* 64 bytes: keeps the payload 16-byte aligned like malloc */

_Static_assert(sizeof(struct alloc_hdr) % 16 == 0, "allocation header breaks alignment");

/* Freed blocks stay allocated for a while (poisoned header) so that a double kfree is reported
 * with the block's allocation site instead of being a use-after-free. */
#define QUARANTINE 256
#define LX_EMUL_POISON_INUSE 0x5a /* include/linux/poison.h: POISON_INUSE */
static struct alloc_hdr* quarantine[QUARANTINE];
static unsigned int quarantine_pos;

static struct alloc_hdr* live_head;
static size_t live_count;
static size_t live_bytes;

static struct alloc_hdr* hdr_of(const void* p) { return (struct alloc_hdr*)p - 1; }

static void* do_alloc(size_t size, gfp_t flags, const char* func, const char* mod,
                      struct device* owner)
{
    if (size == 0)
        return ZERO_SIZE_PTR;
    if (size > (size_t)1 << 32) /* the kernel's kmalloc limit is far lower; catch nonsense */
        return NULL;
    struct alloc_hdr* h = (flags & __GFP_ZERO) ? calloc(1, sizeof(*h) + size)
                                               : malloc(sizeof(*h) + size);
    if (!h)
        return NULL;
    /* Not zeroed by request: filled with the kernel's POISON_INUSE (include/linux/poison.h), as
     * SLUB debugging does. Bytes a driver hands to the bus without writing them (the WILC1000's
     * TX buffer padding) are then the same in every run; malloc's recycled memory depends on the
     * process's environment, and traces must not. */
    if (!(flags & __GFP_ZERO))
        memset(h + 1, LX_EMUL_POISON_INUSE, size);
    h->magic = HDR_MAGIC_LIVE;
    h->size = size;
    h->func = func;
    h->mod = mod;
    h->devm_owner = owner;
    h->internal = 0;
    h->prev = NULL;
    h->next = live_head;
    if (live_head)
        live_head->prev = h;
    live_head = h;
    live_count++;
    live_bytes += size;
    return h + 1;
}

static struct alloc_hdr* checked_hdr(const void* p, const char* op)
{
    struct alloc_hdr* h = hdr_of(p);
    if (h->magic == HDR_MAGIC_FREED)
        lx_kit_abort("%s(%p): double free of a block allocated by %s [%s], %zu bytes", op, p,
                     h->func, h->mod, h->size);
    if (h->magic != HDR_MAGIC_LIVE)
        lx_kit_abort("%s(%p): pointer was not returned by kmalloc (or the block header before "
                     "it was overwritten)",
                     op, p);
    return h;
}

static void do_free(const void* p, const char* op)
{
    if (ZERO_OR_NULL_PTR(p))
        return;
    struct alloc_hdr* h = checked_hdr(p, op);
    if (h->prev)
        h->prev->next = h->next;
    else
        live_head = h->next;
    if (h->next)
        h->next->prev = h->prev;
    live_count--;
    live_bytes -= h->size;
    h->magic = HDR_MAGIC_FREED;
    free(quarantine[quarantine_pos]);
    quarantine[quarantine_pos] = h;
    quarantine_pos = (quarantine_pos + 1) % QUARANTINE;
}

void* lx_emul_alloc(size_t size, int zero, const char* func, const char* mod)
{
    return do_alloc(size, zero ? __GFP_ZERO : 0, func, mod, NULL);
}

void* lx_emul_kmalloc(size_t size, gfp_t flags, const char* func, const char* mod)
{
    return do_alloc(size, flags, func, mod, NULL);
}

void* lx_emul_kmalloc_array(size_t n, size_t size, gfp_t flags, const char* func, const char* mod)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes))
        return NULL;
    return do_alloc(bytes, flags, func, mod, NULL);
}

void* lx_emul_krealloc(const void* p, size_t new_size, gfp_t flags, const char* func,
                       const char* mod)
{
    if (new_size == 0) {
        do_free(p, "krealloc");
        return ZERO_SIZE_PTR;
    }
    if (ZERO_OR_NULL_PTR(p))
        return do_alloc(new_size, flags, func, mod, NULL);
    struct alloc_hdr* h = checked_hdr(p, "krealloc");
    if (new_size <= h->size)
        return (void*)p;
    void* n = do_alloc(new_size, flags & ~__GFP_ZERO, func, mod, NULL);
    if (!n)
        return NULL;
    memcpy(n, p, h->size);
    if (flags & __GFP_ZERO)
        memset((char*)n + h->size, 0, new_size - h->size);
    do_free(p, "krealloc");
    return n;
}

void* lx_emul_kmemdup(const void* src, size_t len, gfp_t gfp, const char* func, const char* mod)
{
    void* p = do_alloc(len, gfp & ~__GFP_ZERO, func, mod, NULL);
    if (p && len)
        memcpy(p, src, len);
    return p;
}

char* lx_emul_kstrdup(const char* s, gfp_t gfp, const char* func, const char* mod)
{
    if (!s)
        return NULL;
    return lx_emul_kmemdup(s, strlen(s) + 1, gfp, func, mod);
}

char* lx_emul_kstrndup(const char* s, size_t max, gfp_t gfp, const char* func, const char* mod)
{
    if (!s)
        return NULL;
    size_t len = strnlen(s, max);
    char* p = do_alloc(len + 1, gfp & ~__GFP_ZERO, func, mod, NULL);
    if (p) {
        memcpy(p, s, len);
        p[len] = 0;
    }
    return p;
}

char* lx_emul_kvasprintf(gfp_t gfp, const char* func, const char* mod, const char* fmt,
                         va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int len = lx_emul_vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char* p = do_alloc((size_t)len + 1, gfp & ~__GFP_ZERO, func, mod, NULL);
    if (p)
        lx_emul_vsnprintf(p, (size_t)len + 1, fmt, ap);
    return p;
}

char* lx_emul_kasprintf(gfp_t gfp, const char* func, const char* mod, const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char* p = lx_emul_kvasprintf(gfp, func, mod, fmt, ap);
    va_end(ap);
    return p;
}

void kfree(const void* p) { do_free(p, "kfree"); }

void kfree_sensitive(const void* p)
{
    if (!ZERO_OR_NULL_PTR(p))
        memset((void*)p, 0, checked_hdr(p, "kfree_sensitive")->size);
    do_free(p, "kfree_sensitive");
}

size_t ksize(const void* p)
{
    if (ZERO_OR_NULL_PTR(p))
        return 0;
    return checked_hdr(p, "ksize")->size;
}

void lx_emul_mem_set_owner_internal(const void* p)
{
    if (!ZERO_OR_NULL_PTR(p))
        checked_hdr(p, "lx_emul_mem_set_owner_internal")->internal = 1;
}

/* ---- devm ---- */

void* lx_emul_devm_kmalloc(struct device* dev, size_t size, gfp_t gfp, const char* func,
                           const char* mod)
{
    if (!dev)
        lx_kit_abort("%s [%s]: devm_kmalloc with a NULL device", func, mod);
    if (size == 0)
        return ZERO_SIZE_PTR;
    return do_alloc(size, gfp, func, mod, dev);
}

void* lx_emul_devm_alloc(void* owner, size_t size, int zero, const char* func, const char* mod)
{
    return lx_emul_devm_kmalloc(owner, size, zero ? __GFP_ZERO : 0, func, mod);
}

void* lx_emul_devm_kmemdup(struct device* dev, const void* src, size_t len, gfp_t gfp,
                           const char* func, const char* mod)
{
    void* p = lx_emul_devm_kmalloc(dev, len, gfp & ~__GFP_ZERO, func, mod);
    if (p && len)
        memcpy(p, src, len);
    return p;
}

char* lx_emul_devm_kstrdup(struct device* dev, const char* s, gfp_t gfp, const char* func,
                           const char* mod)
{
    if (!s)
        return NULL;
    return lx_emul_devm_kmemdup(dev, s, strlen(s) + 1, gfp, func, mod);
}

void devm_kfree(struct device* dev, const void* p)
{
    if (ZERO_OR_NULL_PTR(p))
        return;
    struct alloc_hdr* h = checked_hdr(p, "devm_kfree");
    if (h->devm_owner != dev)
        lx_kit_abort("devm_kfree(%p): block from %s [%s] does not belong to this device", p,
                     h->func, h->mod);
    do_free(p, "devm_kfree");
}

void lx_emul_devres_release_all(struct device* dev)
{
    /* IRQ handlers may use devm memory: stop them first (the kernel releases devres in reverse
     * order of acquisition; IRQs are typically requested after the allocations they use). */
    lx_emul_irq_release_devm(dev);
    struct alloc_hdr* h = live_head;
    while (h) {
        struct alloc_hdr* next = h->next;
        if (h->devm_owner == dev)
            do_free(h + 1, "devres_release_all");
        h = next;
    }
}

/* ---- accounting ---- */

size_t lx_emul_mem_live_count(void)
{
    size_t n = 0;
    for (struct alloc_hdr* h = live_head; h; h = h->next)
        n += !h->internal;
    return n;
}

size_t lx_emul_mem_live_bytes(void)
{
    size_t n = 0;
    for (struct alloc_hdr* h = live_head; h; h = h->next)
        n += h->internal ? 0 : h->size;
    return n;
}

size_t lx_emul_mem_report_leaks(void)
{
    struct site {
        const char* func;
        const char* mod;
        bool devm;
        size_t count, bytes;
    } sites[64];
    int nsites = 0;
    size_t total = 0, other = 0;
    char line[256];
    for (struct alloc_hdr* h = live_head; h; h = h->next) {
        if (h->internal)
            continue;
        total++;
        int i;
        for (i = 0; i < nsites; i++)
            if (sites[i].func == h->func && sites[i].mod == h->mod &&
                sites[i].devm == (h->devm_owner != NULL))
                break;
        if (i == nsites) {
            if (nsites == 64) {
                other++;
                continue;
            }
            sites[nsites++] = (struct site){h->func, h->mod, h->devm_owner != NULL, 0, 0};
        }
        sites[i].count++;
        sites[i].bytes += h->size;
    }
    for (int i = 0; i < nsites; i++) {
        lx_emul_snprintf(line, sizeof(line),
                         "lx_emul: leak: %zu allocation(s), %zu bytes from %s [%s]%s",
                         sites[i].count, sites[i].bytes, sites[i].func, sites[i].mod,
                         sites[i].devm ? " (devm, device never released)" : "");
        lx_kit_log(4, "lx_emul", line);
    }
    if (other) {
        lx_emul_snprintf(line, sizeof(line), "lx_emul: leak: %zu more from other sites", other);
        lx_kit_log(4, "lx_emul", line);
    }
    return total;
}
