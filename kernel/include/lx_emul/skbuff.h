/* SPDX-License-Identifier: MIT */
/* lx_emul: socket buffers (linux/skbuff.h), linear skbs only.
 * Layout as on a 64-bit kernel: head/data are pointers, tail/end are offsets from head.
 * Allocation: alloc_skb(size) gives exactly `size` bytes between head and end (no rounding, so
 * tailroom checks are strict); __netdev_alloc_skb/dev_alloc_skb add NET_SKB_PAD (64) headroom,
 * netdev_alloc_skb_ip_align another NET_IP_ALIGN (2, the generic/arm64 value).
 * Guards: a canary before head and one after end + tail slack (lx_kit parameter, default 8 bytes:
 * the allocator rounding a real kernel has there; ks8851_par writes 2 bytes past its RX buffer).
 * Canaries are checked at free and by lx_emul_skb_check(); a corrupted canary, skb_put past end,
 * skb_push before head or a double free stops the run with a message naming the skb, its
 * allocation site and the offset. Live skbs at the end of a run are reported as leaks. */
#ifndef LX_EMUL_SKBUFF_H
#define LX_EMUL_SKBUFF_H

#include <lx_emul/types.h>
#include <lx_emul/atomic.h>
#include <lx_emul/mm.h>
#include <lx_emul/sync.h>
#include <lx_emul/list.h>

#define NET_SKB_PAD 64
#define NET_IP_ALIGN 2
#define SMP_CACHE_BYTES_SKB 64
#define SKB_DATA_ALIGN(x) (((x) + (SMP_CACHE_BYTES_SKB - 1)) & ~(SMP_CACHE_BYTES_SKB - 1))
#define MAX_SKB_FRAGS 17

#define CHECKSUM_NONE 0
#define CHECKSUM_UNNECESSARY 1
#define CHECKSUM_COMPLETE 2
#define CHECKSUM_PARTIAL 3

#define PACKET_HOST 0
#define PACKET_BROADCAST 1
#define PACKET_MULTICAST 2
#define PACKET_OTHERHOST 3
#define PACKET_OUTGOING 4
#define PACKET_LOOPBACK 5

struct net_device;
struct sock;
typedef unsigned int sk_buff_data_t;

struct skb_shared_info {
    u8 flags;
    u8 nr_frags;
    u8 tx_flags;
    unsigned short gso_size;
    unsigned short gso_segs;
    unsigned int gso_type;
};

struct sk_buff {
    struct sk_buff* next; /* next/prev first: struct sk_buff_head aliases them */
    struct sk_buff* prev;
    struct net_device* dev;
    struct sock* sk;
    ktime_t tstamp;
    char cb[48] __aligned(8);
    unsigned int len;
    unsigned int data_len;
    u16 mac_len;
    u16 hdr_len;
    u16 queue_mapping;
    u8 cloned;
    u8 pkt_type;
    u8 ip_summed;
    u8 ignore_df;
    u32 priority;
    int skb_iif;
    u32 hash;
    __be16 vlan_proto;
    u16 vlan_tci;
    u32 mark;
    __be16 protocol;
    u16 transport_header;
    u16 network_header;
    u16 mac_header;
    sk_buff_data_t tail;
    sk_buff_data_t end;
    unsigned char* head;
    unsigned char* data;
    unsigned int truesize;
    refcount_t users;
    /* skb_release_head_state() calls it when the last reference goes (tcp_wfree for a TCP
     * socket's skb: TCP Small Queues gets its budget back). */
    void (*destructor)(struct sk_buff* skb);
    /* lx_emul */
    /* The testbench's stack: who to tell when this skb is freed (lx_emul_netdev_xmit_owned). */
    void (*lx_owner_free)(void* ctx, uint64_t cookie);
    void* lx_owner_ctx;
    uint64_t lx_owner_cookie;
    struct skb_shared_info lx_shinfo;
    u32 lx_magic;
    unsigned long lx_id;
    const char* lx_alloc_func;
    const char* lx_alloc_mod;
    const char* lx_free_func;
    u64 lx_alloc_time_ns;
    struct list_head lx_live;
};

struct sk_buff_head {
    struct sk_buff* next; /* must match struct sk_buff's first two members */
    struct sk_buff* prev;
    u32 qlen;
    spinlock_t lock;
};

#define skb_shinfo(skb) (&(skb)->lx_shinfo)

/* ---- allocation and freeing (call site recorded) ---- */
struct sk_buff* lx_emul_alloc_skb(unsigned int size, gfp_t gfp, const char* func, const char* mod);
struct sk_buff* lx_emul_netdev_alloc_skb(struct net_device* dev, unsigned int len, gfp_t gfp,
                                         unsigned int extra_reserve, const char* func,
                                         const char* mod);
struct sk_buff* lx_emul_skb_copy(const struct sk_buff* skb, gfp_t gfp, const char* func,
                                 const char* mod);
void lx_emul_kfree_skb(struct sk_buff* skb, const char* func);
/* dev_requeue_skb: an skb the driver refused with NETDEV_TX_BUSY waits in the qdisc, not in the
 * driver, until the stack offers it again: park takes it off the live list (what the driver
 * holds; a free while parked is caught as a free of a dead skb), unpark puts it back. */
void lx_emul_skb_park(struct sk_buff* skb);
void lx_emul_skb_unpark(struct sk_buff* skb);
#define alloc_skb(size, gfp) lx_emul_alloc_skb((size), (gfp), __func__, LX_EMUL_MODNAME)
#define __netdev_alloc_skb(dev, len, gfp)                                                          \
    lx_emul_netdev_alloc_skb((dev), (len), (gfp), 0, __func__, LX_EMUL_MODNAME)
#define netdev_alloc_skb(dev, len)                                                                 \
    lx_emul_netdev_alloc_skb((dev), (len), GFP_ATOMIC, 0, __func__, LX_EMUL_MODNAME)
#define __netdev_alloc_skb_ip_align(dev, len, gfp)                                                 \
    lx_emul_netdev_alloc_skb((dev), (len), (gfp), NET_IP_ALIGN, __func__, LX_EMUL_MODNAME)
#define netdev_alloc_skb_ip_align(dev, len)                                                        \
    lx_emul_netdev_alloc_skb((dev), (len), GFP_ATOMIC, NET_IP_ALIGN, __func__, LX_EMUL_MODNAME)
#define dev_alloc_skb(len)                                                                         \
    lx_emul_netdev_alloc_skb(NULL, (len), GFP_ATOMIC, 0, __func__, LX_EMUL_MODNAME)
#define __dev_alloc_skb(len, gfp)                                                                  \
    lx_emul_netdev_alloc_skb(NULL, (len), (gfp), 0, __func__, LX_EMUL_MODNAME)
#define skb_copy(skb, gfp) lx_emul_skb_copy((skb), (gfp), __func__, LX_EMUL_MODNAME)
#define kfree_skb(skb) lx_emul_kfree_skb((skb), __func__)
#define consume_skb(skb) lx_emul_kfree_skb((skb), __func__)
#define dev_kfree_skb(skb) lx_emul_kfree_skb((skb), __func__)
#define dev_kfree_skb_any(skb) lx_emul_kfree_skb((skb), __func__)
#define dev_kfree_skb_irq(skb) lx_emul_kfree_skb((skb), __func__)
#define dev_consume_skb_any(skb) lx_emul_kfree_skb((skb), __func__)
#define dev_consume_skb_irq(skb) lx_emul_kfree_skb((skb), __func__)
#define kfree_skb_reason(skb, reason) lx_emul_kfree_skb((skb), __func__)
static inline struct sk_buff* skb_get(struct sk_buff* skb)
{
    refcount_inc(&skb->users);
    return skb;
}
static inline bool skb_shared(const struct sk_buff* skb) { return refcount_read(&skb->users) != 1; }

/* Checks the canaries of one skb / of all live skbs; stops the run on corruption. */
void lx_emul_skb_check(const struct sk_buff* skb, const char* where);
/* Stops the run with an skb_over/under_panic message (skb_put past end, skb_push before head). */
void lx_emul_skb_panic(const struct sk_buff* skb, unsigned int len, const char* op,
                       const char* func) __noreturn;

/* ---- geometry ---- */
static inline unsigned char* skb_tail_pointer(const struct sk_buff* skb)
{
    return skb->head + skb->tail;
}
static inline unsigned char* skb_end_pointer(const struct sk_buff* skb)
{
    return skb->head + skb->end;
}
static inline unsigned int skb_end_offset(const struct sk_buff* skb) { return skb->end; }
static inline void skb_reset_tail_pointer(struct sk_buff* skb)
{
    skb->tail = (sk_buff_data_t)(skb->data - skb->head);
}
static inline void skb_set_tail_pointer(struct sk_buff* skb, const int offset)
{
    skb_reset_tail_pointer(skb);
    skb->tail += offset;
}
static inline bool skb_is_nonlinear(const struct sk_buff* skb) { return skb->data_len != 0; }
static inline unsigned int skb_headlen(const struct sk_buff* skb) { return skb->len - skb->data_len; }
static inline unsigned int skb_headroom(const struct sk_buff* skb)
{
    return (unsigned int)(skb->data - skb->head);
}
static inline int skb_tailroom(const struct sk_buff* skb)
{
    return skb_is_nonlinear(skb) ? 0 : (int)(skb->end - skb->tail);
}
static inline void skb_reserve(struct sk_buff* skb, int len)
{
    skb->data += len;
    skb->tail += len;
}

static inline void* __skb_put(struct sk_buff* skb, unsigned int len)
{
    void* tmp = skb_tail_pointer(skb);
    skb->tail += len;
    skb->len += len;
    return tmp;
}
#define skb_put(skb, len) lx_emul_skb_put((skb), (len), __func__)
static inline void* lx_emul_skb_put(struct sk_buff* skb, unsigned int len, const char* func)
{
    void* tmp = skb_tail_pointer(skb);
    if (unlikely((u64)skb->tail + len > skb->end))
        lx_emul_skb_panic(skb, len, "skb_put", func);
    skb->tail += len;
    skb->len += len;
    return tmp;
}
#define skb_put_data(skb, data, len) lx_emul_skb_put_data((skb), (data), (len), __func__)
static inline void* lx_emul_skb_put_data(struct sk_buff* skb, const void* data, unsigned int len,
                                         const char* func)
{
    void* tmp = lx_emul_skb_put(skb, len, func);
    __builtin_memcpy(tmp, data, len);
    return tmp;
}
#define __skb_put_data skb_put_data
#define skb_put_zero(skb, len) ((void*)__builtin_memset(skb_put((skb), (len)), 0, (len)))
#define __skb_put_zero skb_put_zero
#define skb_put_u8(skb, val) (*(u8*)skb_put((skb), 1) = (val))

static inline void* __skb_push(struct sk_buff* skb, unsigned int len)
{
    skb->data -= len;
    skb->len += len;
    return skb->data;
}
#define skb_push(skb, len) lx_emul_skb_push((skb), (len), __func__)
static inline void* lx_emul_skb_push(struct sk_buff* skb, unsigned int len, const char* func)
{
    if (unlikely(len > skb_headroom(skb)))
        lx_emul_skb_panic(skb, len, "skb_push", func);
    skb->data -= len;
    skb->len += len;
    return skb->data;
}
static inline void* __skb_pull(struct sk_buff* skb, unsigned int len)
{
    skb->len -= len;
    return skb->data += len;
}
static inline void* skb_pull(struct sk_buff* skb, unsigned int len)
{
    if (unlikely(len > skb->len))
        return NULL;
    return __skb_pull(skb, len);
}
#define skb_pull_inline skb_pull
static inline void __skb_trim(struct sk_buff* skb, unsigned int len)
{
    skb->len = len;
    skb_set_tail_pointer(skb, len);
}
static inline void skb_trim(struct sk_buff* skb, unsigned int len)
{
    if (skb->len > len)
        __skb_trim(skb, len);
}
static inline int skb_cow_head(struct sk_buff* skb, unsigned int headroom)
{
    return skb_headroom(skb) >= headroom ? 0 : -12 /* -ENOMEM: no reallocation emulated */;
}
static inline void skb_orphan(struct sk_buff* skb) { skb->sk = NULL; }
static inline void skb_tx_timestamp(struct sk_buff* skb) { (void)skb; }
static inline u16 skb_get_queue_mapping(const struct sk_buff* skb) { return skb->queue_mapping; }
static inline void skb_set_queue_mapping(struct sk_buff* skb, u16 q) { skb->queue_mapping = q; }
static inline void skb_checksum_none_assert(const struct sk_buff* skb) { (void)skb; }

/* ---- header offsets ---- */
static inline unsigned char* skb_mac_header(const struct sk_buff* skb)
{
    return skb->head + skb->mac_header;
}
static inline void skb_reset_mac_header(struct sk_buff* skb)
{
    skb->mac_header = (u16)(skb->data - skb->head);
}
static inline void skb_set_mac_header(struct sk_buff* skb, const int offset)
{
    skb_reset_mac_header(skb);
    skb->mac_header += offset;
}
static inline bool skb_mac_header_was_set(const struct sk_buff* skb)
{
    return skb->mac_header != (u16)~0U;
}
static inline unsigned char* skb_network_header(const struct sk_buff* skb)
{
    return skb->head + skb->network_header;
}
static inline void skb_reset_network_header(struct sk_buff* skb)
{
    skb->network_header = (u16)(skb->data - skb->head);
}
static inline void skb_set_network_header(struct sk_buff* skb, const int offset)
{
    skb_reset_network_header(skb);
    skb->network_header += offset;
}
static inline int skb_network_offset(const struct sk_buff* skb)
{
    return (int)(skb_network_header(skb) - skb->data);
}
static inline unsigned char* skb_transport_header(const struct sk_buff* skb)
{
    return skb->head + skb->transport_header;
}
static inline void skb_reset_transport_header(struct sk_buff* skb)
{
    skb->transport_header = (u16)(skb->data - skb->head);
}
static inline void skb_set_transport_header(struct sk_buff* skb, const int offset)
{
    skb_reset_transport_header(skb);
    skb->transport_header += offset;
}
static inline int skb_transport_offset(const struct sk_buff* skb)
{
    return (int)(skb_transport_header(skb) - skb->data);
}
static inline int skb_mac_offset(const struct sk_buff* skb)
{
    return (int)(skb_mac_header(skb) - skb->data);
}

/* ---- copying ---- */
static inline void skb_copy_from_linear_data(const struct sk_buff* skb, void* to,
                                             const unsigned int len)
{
    __builtin_memcpy(to, skb->data, len);
}
static inline void skb_copy_from_linear_data_offset(const struct sk_buff* skb, const int offset,
                                                    void* to, const unsigned int len)
{
    __builtin_memcpy(to, skb->data + offset, len);
}
static inline void skb_copy_to_linear_data(struct sk_buff* skb, const void* from,
                                           const unsigned int len)
{
    __builtin_memcpy(skb->data, from, len);
}
static inline void skb_copy_to_linear_data_offset(struct sk_buff* skb, const int offset,
                                                  const void* from, const unsigned int len)
{
    __builtin_memcpy(skb->data + offset, from, len);
}
int skb_copy_bits(const struct sk_buff* skb, int offset, void* to, int len);
static inline void* skb_header_pointer(const struct sk_buff* skb, int offset, int len,
                                       void* buffer)
{
    (void)buffer;
    if (offset < 0 || len < 0 || (unsigned int)(offset + len) > skb_headlen(skb))
        return NULL;
    return skb->data + offset;
}

/* ---- queues ---- */
static inline void __skb_queue_head_init(struct sk_buff_head* list)
{
    list->prev = list->next = (struct sk_buff*)list;
    list->qlen = 0;
}
static inline void skb_queue_head_init(struct sk_buff_head* list)
{
    lx_emul_spin_lock_init(&list->lock, "sk_buff_head.lock");
    __skb_queue_head_init(list);
}
static inline int skb_queue_empty(const struct sk_buff_head* list)
{
    return list->next == (const struct sk_buff*)list;
}
#define skb_queue_empty_lockless skb_queue_empty
static inline u32 skb_queue_len(const struct sk_buff_head* list) { return list->qlen; }
#define skb_queue_len_lockless skb_queue_len
static inline bool skb_queue_is_last(const struct sk_buff_head* list, const struct sk_buff* skb)
{
    return skb->next == (const struct sk_buff*)list;
}
static inline struct sk_buff* skb_peek(const struct sk_buff_head* list)
{
    struct sk_buff* skb = list->next;
    return skb == (const struct sk_buff*)list ? NULL : skb;
}
static inline struct sk_buff* skb_peek_tail(const struct sk_buff_head* list)
{
    struct sk_buff* skb = list->prev;
    return skb == (const struct sk_buff*)list ? NULL : skb;
}
static inline void __skb_insert(struct sk_buff* newsk, struct sk_buff* prev, struct sk_buff* next,
                                struct sk_buff_head* list)
{
    newsk->next = next;
    newsk->prev = prev;
    next->prev = newsk;
    prev->next = newsk;
    list->qlen++;
}
static inline void __skb_queue_tail(struct sk_buff_head* list, struct sk_buff* newsk)
{
    __skb_insert(newsk, list->prev, (struct sk_buff*)list, list);
}
static inline void __skb_queue_head(struct sk_buff_head* list, struct sk_buff* newsk)
{
    __skb_insert(newsk, (struct sk_buff*)list, list->next, list);
}
static inline void __skb_unlink(struct sk_buff* skb, struct sk_buff_head* list)
{
    struct sk_buff* next = skb->next;
    struct sk_buff* prev = skb->prev;
    list->qlen--;
    skb->next = skb->prev = NULL;
    next->prev = prev;
    prev->next = next;
}
static inline struct sk_buff* __skb_dequeue(struct sk_buff_head* list)
{
    struct sk_buff* skb = skb_peek(list);
    if (skb)
        __skb_unlink(skb, list);
    return skb;
}
static inline struct sk_buff* __skb_dequeue_tail(struct sk_buff_head* list)
{
    struct sk_buff* skb = skb_peek_tail(list);
    if (skb)
        __skb_unlink(skb, list);
    return skb;
}
/* The real headers' emulation defines these names for the kernel's sk_buff (lx_emul_real/): the
 * shadow headers' are lx_emul_ names, so one link can hold both. */
#define skb_queue_tail lx_emul_skb_queue_tail
#define skb_queue_head lx_emul_skb_queue_head
#define skb_dequeue lx_emul_skb_dequeue
#define skb_dequeue_tail lx_emul_skb_dequeue_tail
#define skb_unlink lx_emul_skb_unlink
#define skb_queue_purge lx_emul_skb_queue_purge
void skb_queue_tail(struct sk_buff_head* list, struct sk_buff* newsk);
void skb_queue_head(struct sk_buff_head* list, struct sk_buff* newsk);
struct sk_buff* skb_dequeue(struct sk_buff_head* list);
struct sk_buff* skb_dequeue_tail(struct sk_buff_head* list);
void skb_unlink(struct sk_buff* skb, struct sk_buff_head* list);
void skb_queue_purge(struct sk_buff_head* list);
static inline void __skb_queue_purge(struct sk_buff_head* list)
{
    struct sk_buff* skb;
    while ((skb = __skb_dequeue(list)) != NULL)
        kfree_skb(skb);
}
static inline void skb_queue_splice_tail_init(struct sk_buff_head* list, struct sk_buff_head* head)
{
    struct sk_buff* skb;
    while ((skb = __skb_dequeue(list)) != NULL)
        __skb_queue_tail(head, skb);
}
#define skb_queue_walk(queue, skb)                                                                 \
    for ((skb) = (queue)->next; (skb) != (struct sk_buff*)(queue); (skb) = (skb)->next)
#define skb_queue_walk_safe(queue, skb, tmp)                                                       \
    for ((skb) = (queue)->next, (tmp) = (skb)->next; (skb) != (struct sk_buff*)(queue);            \
         (skb) = (tmp), (tmp) = (skb)->next)

#endif /* LX_EMUL_SKBUFF_H */
