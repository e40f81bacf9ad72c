// SPDX-License-Identifier: MIT
/* lx_emul_real: socket buffers on the kernel's struct sk_buff. An skb is built as the kernel's
 * __alloc_skb builds it: a linear data area of SKB_DATA_ALIGN(size) bytes followed by the real
 * struct skb_shared_info (what skb_shinfo() reads at skb->end, zeroed up to dataref, dataref 1),
 * tail and end as offsets, one user. The data area is lx_emul's guarded buffer (lx_emul/shared.h:
 * canaries around it, the run's tail slack after the shared info), the struct sits in an
 * emulation-owned record that names the skb in aborts (its number, allocating function, time)
 * and keeps it on the live list; a freed record stays in a quarantine a while, so a double free
 * names the skb. Freeing follows kfree_skb_reason: the last user's free runs the destructor,
 * checks the canaries and that the shared info still describes a linear skb, then releases it. */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>

#include <lx_emul/real.h>
#include <lx_emul/shared.h>

#include "internal.h"

#define SKB_LIVE 0x736b6221u  /* "skb!" */
#define SKB_FREED 0x64656164u /* "dead" */
#define QUARANTINE 256

struct real_skb {
    u32 magic;
    unsigned long id;
    const char *alloc_func;
    u64 alloc_ns;
    const char *free_func;
    struct list_head live;
    struct lx_real_skb_owner owner;
    struct sk_buff skb;
};

static LIST_HEAD(live_skbs);
static size_t live_n;
static unsigned long next_id = 1;
static struct real_skb *quarantine[QUARANTINE];
static unsigned int quarantine_pos;

static struct real_skb *rec_of(const struct sk_buff *skb)
{
    return container_of((struct sk_buff *)skb, struct real_skb, skb);
}

static void describe(const void *skb, char *out, size_t n)
{
    const struct real_skb *r = rec_of(skb);
    lx_emul_scnprintf(out, n, "skb #%lu (allocated by %s at %llu ns, %u bytes head..end)", r->id,
                     r->alloc_func, (unsigned long long)r->alloc_ns,
                     skb_end_offset((const struct sk_buff *)skb));
}

/* The guarded area: head .. end and the shared info after it. */
static size_t area_size(const struct sk_buff *skb)
{
    return skb_end_offset(skb) + SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
}

static struct sk_buff *skb_alloc(unsigned int size, const char *func)
{
    size = SKB_DATA_ALIGN(size);
    struct real_skb *r = calloc(1, sizeof(*r));
    u8 *data = lx_emul_skb_buf_alloc(size + SKB_DATA_ALIGN(sizeof(struct skb_shared_info)));
    if (!r || !data) {
        if (data)
            lx_emul_skb_buf_free(data);
        free(r);
        return NULL;
    }
    struct sk_buff *skb = &r->skb;
    skb->truesize = SKB_TRUESIZE(size);
    refcount_set(&skb->users, 1);
    skb->head = data;
    skb->data = data;
    skb_reset_tail_pointer(skb);
    skb_set_end_offset(skb, size);
    skb->mac_header = (typeof(skb->mac_header))~0U;
    skb->transport_header = (typeof(skb->transport_header))~0U;
    atomic_set(&skb_shinfo(skb)->dataref, 1); /* the rest of it is zeroed with the data */
    r->magic = SKB_LIVE;
    r->id = next_id++;
    r->alloc_func = func;
    r->alloc_ns = lx_kit_now_ns();
    list_add_tail(&r->live, &live_skbs);
    live_n++;
    return skb;
}

struct sk_buff *__alloc_skb(unsigned int size, gfp_t priority, int flags, int node)
{
    (void)priority, (void)node;
    if (flags)
        lx_kit_abort("__alloc_skb: flags %#x (fclone or pfmemalloc skbs) are not emulated", flags);
    return skb_alloc(size, "__alloc_skb");
}

struct sk_buff *__netdev_alloc_skb(struct net_device *dev, unsigned int len, gfp_t gfp_mask)
{
    (void)gfp_mask;
    struct sk_buff *skb = skb_alloc(len + NET_SKB_PAD, "__netdev_alloc_skb");
    if (!skb)
        return NULL;
    skb_reserve(skb, NET_SKB_PAD);
    skb->dev = dev;
    return skb;
}

static struct real_skb *live_rec(const struct sk_buff *skb, const char *func)
{
    struct real_skb *r = rec_of(skb);
    if (r->magic == SKB_LIVE)
        return r;
    char who[192];
    for (unsigned int i = 0; i < QUARANTINE; i++) {
        if (quarantine[i] == r) {
            describe(skb, who, sizeof(who));
            lx_kit_abort("skb double free: %s freed again by %s (first freed by %s)", who, func,
                         r->free_func);
        }
    }
    lx_kit_abort("%s: %p is not a live sk_buff", func, (const void *)skb);
}

void *skb_put(struct sk_buff *skb, unsigned int len)
{
    void *tmp = skb_tail_pointer(skb);
    if (skb_is_nonlinear(skb))
        lx_kit_abort("skb_put on a nonlinear skb");
    skb->tail += len;
    skb->len += len;
    if (unlikely(skb->tail > skb->end)) {
        char who[192];
        describe(skb, who, sizeof(who));
        lx_kit_abort("skb_over_panic: skb_put(len %u): %s: data at head+%u, len %u, tail %u, "
                     "end %u — would write past the end of the buffer",
                     len, who, skb_headroom(skb), skb->len, skb->tail, skb->end);
    }
    return tmp;
}

static void skb_free(struct sk_buff *skb, const char *func)
{
    struct real_skb *r = live_rec(skb, func);
    if (!skb_unref(skb))
        return;
    if (skb->destructor) /* skb_release_head_state */
        skb->destructor(skb);
    struct skb_shared_info *shinfo = skb_shinfo(skb);
    if (skb->cloned || shinfo->nr_frags || shinfo->frag_list ||
        atomic_read(&shinfo->dataref) != 1) {
        char who[192];
        describe(skb, who, sizeof(who));
        lx_kit_abort("%s: %s: skb_shared_info says clones or fragments (%u frags, frag_list %p, "
                     "dataref %d), which nicsim never made: overwritten past end?",
                     func, who, shinfo->nr_frags, (void *)shinfo->frag_list,
                     atomic_read(&shinfo->dataref));
    }
    lx_emul_skb_buf_check(skb->head, area_size(skb), func, describe, skb, 1);
    lx_emul_skb_buf_free(skb->head);
    skb->head = skb->data = NULL;
    list_del(&r->live);
    live_n--;
    r->magic = SKB_FREED;
    r->free_func = func;
    free(quarantine[quarantine_pos]);
    quarantine[quarantine_pos] = r;
    quarantine_pos = (quarantine_pos + 1) % QUARANTINE;
}

#if LX_REAL_KERNEL_AT_LEAST(6, 11)
void sk_skb_reason_drop(struct sock *sk, struct sk_buff *skb, enum skb_drop_reason reason)
{
    (void)sk, (void)reason;
    if (skb)
        skb_free(skb, "kfree_skb");
}
#else
void kfree_skb_reason(struct sk_buff *skb, enum skb_drop_reason reason)
{
    (void)reason;
    if (skb)
        skb_free(skb, "kfree_skb");
}
#endif

#ifdef CONFIG_TRACEPOINTS
void consume_skb(struct sk_buff *skb)
{
    if (skb)
        skb_free(skb, "consume_skb");
}
#endif

/* ---- the locked queue functions (the spinlock is the uniprocessor kernel's) ---- */

#include <lx_emul/skb_queue_locked.h>

#if LX_REAL_KERNEL_AT_LEAST(6, 8)
void skb_queue_purge_reason(struct sk_buff_head *list, enum skb_drop_reason reason)
{
    struct sk_buff *skb;
    while ((skb = skb_dequeue(list)) != NULL)
        kfree_skb_reason(skb, reason);
}
#else
void skb_queue_purge(struct sk_buff_head *list)
{
    struct sk_buff *skb;
    while ((skb = skb_dequeue(list)) != NULL)
        kfree_skb(skb);
}
#endif

size_t lx_real_skb_live_count(void) { return live_n; }

struct lx_real_skb_owner *lx_real_skb_owner_of(struct sk_buff *skb)
{
    return &live_rec(skb, "lx_real_skb_owner_of")->owner;
}
