// SPDX-License-Identifier: MIT
/* lx_emul: socket buffers with guard canaries (see lx_emul/skbuff.h).
 * Buffer layout:  [head canary 16][head .. end][tail slack][tail canary 16]
 * The slack is filled with a pattern too: writes there are allowed (a real kernel has allocator
 * rounding or skb_shared_info there) but counted at free. The guarded buffers are shared with
 * the real headers' skbs (lx_emul_skb_buf_*, lx_emul/shared.h), whose head .. end includes the
 * real skb_shared_info. */
#include <stdlib.h>

#include "internal.h"

#include <lx_emul/skbuff.h>
#include <lx_kit/lx_emul_api.h>

#define SKB_MAGIC_LIVE 0x736b6221u  /* "skb!" */
#define SKB_MAGIC_FREED 0x64656164u /* "dead" */
#define SKB_MAGIC_PARKED 0x7061726bu /* "park": requeued by the qdisc, lx_emul_skb_park */
#define CANARY_LEN 16
#define CANARY_HEAD 0xa5
#define CANARY_TAIL 0x5a
#define SLACK_FILL 0xc3
#define QUARANTINE 256 /* freed sk_buff structs kept to name double frees */

struct skb_buf {
    size_t slack;    /* tail slack of this buffer (parameter at allocation time) */
    size_t capacity; /* bytes[] allocated */
    unsigned char bytes[];
};

/* Freed buffers and structs out of the quarantine serve the next skbs, as the kernel's slab
 * caches do: an skb per frame was two allocations and two frees. Every field and byte an
 * allocation sets is set again, so nothing carries over. Sanitizer builds allocate each one, so
 * that a use after free in driver code is still caught (NICSIM_ASAN, set by the build). */
#ifdef NICSIM_ASAN
#define SKB_CACHE 0
#else
#define SKB_CACHE 16
#endif
#if SKB_CACHE
static struct skb_buf* spare_buf[SKB_CACHE];
static unsigned int spare_bufs;
static struct sk_buff* spare_skb[SKB_CACHE];
static unsigned int spare_skbs;
#endif

static struct skb_buf* buf_alloc(size_t capacity)
{
#if SKB_CACHE
    for (unsigned int i = spare_bufs; i-- > 0;) {
        struct skb_buf* b = spare_buf[i];
        if (b->capacity >= capacity) {
            spare_buf[i] = spare_buf[--spare_bufs];
            return b;
        }
    }
#endif
    struct skb_buf* b = malloc(sizeof(*b) + capacity);
    if (b)
        b->capacity = capacity;
    return b;
}

static void buf_free(struct skb_buf* b)
{
#if SKB_CACHE
    if (spare_bufs < SKB_CACHE) {
        spare_buf[spare_bufs++] = b;
        return;
    }
#endif
    free(b);
}

static struct sk_buff* struct_alloc(void)
{
#if SKB_CACHE
    if (spare_skbs) {
        struct sk_buff* skb = spare_skb[--spare_skbs];
        memset(skb, 0, sizeof(*skb));
        return skb;
    }
#endif
    return calloc(1, sizeof(struct sk_buff));
}

static void struct_free(struct sk_buff* skb) /* one that left the quarantine */
{
#if SKB_CACHE
    if (skb && spare_skbs < SKB_CACHE) {
        spare_skb[spare_skbs++] = skb;
        return;
    }
#endif
    free(skb);
}

static LIST_HEAD(skb_live);
static size_t skb_live_n;
static unsigned long skb_next_id = 1;
static unsigned long slack_writes; /* by the drivers on either header set */
static struct sk_buff* quarantine[QUARANTINE];
static unsigned int quarantine_pos;

static struct skb_buf* buf_of_start(const void* start)
{
    return container_of((void*)((const unsigned char*)start - CANARY_LEN), struct skb_buf, bytes);
}

static void describe(const struct sk_buff* skb, char* out, size_t n)
{
    lx_emul_snprintf(out, n, "skb #%lu (allocated by %s [%s] at %llu ns, %u bytes head..end)",
                     skb->lx_id, skb->lx_alloc_func, skb->lx_alloc_mod,
                     (unsigned long long)skb->lx_alloc_time_ns, skb->end);
}

static void describe_shadow(const void* skb, char* out, size_t n) { describe(skb, out, n); }

void* lx_emul_skb_buf_alloc(size_t size)
{
    size_t slack = lx_kit_skb_tail_slack();
    struct skb_buf* b = buf_alloc(CANARY_LEN + size + slack + CANARY_LEN);
    if (!b)
        return NULL;
    b->slack = slack;
    memset(b->bytes, CANARY_HEAD, CANARY_LEN);
    memset(b->bytes + CANARY_LEN, 0, size);
    memset(b->bytes + CANARY_LEN + size, SLACK_FILL, slack);
    memset(b->bytes + CANARY_LEN + size + slack, CANARY_TAIL, CANARY_LEN);
    return b->bytes + CANARY_LEN;
}

void lx_emul_skb_buf_free(void* start) { buf_free(buf_of_start(start)); }

void lx_emul_skb_buf_check(const void* start, size_t size, const char* where,
                           void (*describe_owner)(const void* owner, char* out, size_t n),
                           const void* owner, int at_free)
{
    char who[192];
    const unsigned char* head_canary = (const unsigned char*)start - CANARY_LEN;
    const unsigned char* end = (const unsigned char*)start + size;
    size_t slack = buf_of_start(start)->slack;
    const unsigned char* tail_canary = end + slack;

    for (int i = 0; i < CANARY_LEN; i++) {
        if (head_canary[i] != CANARY_HEAD) {
            describe_owner(owner, who, sizeof(who));
            lx_kit_abort("skb guard: head underrun in %s: %s: byte at head-%d overwritten "
                         "(0x%02x)",
                         where, who, CANARY_LEN - i, head_canary[i]);
        }
    }
    for (int i = CANARY_LEN - 1; i >= 0; i--) {
        if (tail_canary[i] != CANARY_TAIL) {
            describe_owner(owner, who, sizeof(who));
            lx_kit_abort("skb guard: tail overrun in %s: %s: byte at end+%zu overwritten (0x%02x), "
                         "beyond the %zu-byte tail slack",
                         where, who, slack + (size_t)i, tail_canary[i], slack);
        }
    }
    if (at_free) {
        size_t used = 0;
        for (size_t i = slack; i > 0; i--)
            if (end[i - 1] != SLACK_FILL) {
                used = i;
                break;
            }
        if (used) {
            slack_writes++;
            if (slack_writes <= 8) {
                char line[320];
                describe_owner(owner, who, sizeof(who));
                lx_emul_snprintf(line, sizeof(line),
                                 "lx_emul: note: %s: driver wrote %zu byte(s) past end (within the "
                                 "%zu-byte tail slack)",
                                 who, used, slack);
                lx_kit_log(5, "lx_emul", line);
            }
        }
    }
}

static void check_guards(const struct sk_buff* skb, const char* where, bool at_free)
{
    lx_emul_skb_buf_check(skb->head, skb->end, where, describe_shadow, skb, at_free);
}

static struct sk_buff* skb_alloc(unsigned int size, const char* func, const char* mod)
{
    struct sk_buff* skb = struct_alloc();
    unsigned char* head = lx_emul_skb_buf_alloc(size);
    if (!skb || !head) {
        free(skb);
        if (head)
            lx_emul_skb_buf_free(head);
        return NULL;
    }
    skb->head = head;
    skb->data = skb->head;
    skb->tail = 0;
    skb->end = size;
    skb->truesize = size + (unsigned int)sizeof(*skb);
    refcount_set(&skb->users, 1);
    skb->mac_header = (u16)~0U;
    skb->transport_header = (u16)~0U;
    skb->lx_magic = SKB_MAGIC_LIVE;
    skb->lx_id = skb_next_id++;
    skb->lx_alloc_func = func;
    skb->lx_alloc_mod = mod;
    skb->lx_alloc_time_ns = lx_kit_now_ns();
    list_add_tail(&skb->lx_live, &skb_live);
    skb_live_n++;
    return skb;
}

struct sk_buff* lx_emul_alloc_skb(unsigned int size, gfp_t gfp, const char* func, const char* mod)
{
    (void)gfp;
    return skb_alloc(size, func, mod);
}

struct sk_buff* lx_emul_netdev_alloc_skb(struct net_device* dev, unsigned int len, gfp_t gfp,
                                         unsigned int extra_reserve, const char* func,
                                         const char* mod)
{
    (void)gfp;
    struct sk_buff* skb = skb_alloc(NET_SKB_PAD + extra_reserve + len, func, mod);
    if (!skb)
        return NULL;
    skb_reserve(skb, NET_SKB_PAD + extra_reserve);
    skb->dev = dev;
    return skb;
}

struct sk_buff* lx_emul_skb_copy(const struct sk_buff* skb, gfp_t gfp, const char* func,
                                 const char* mod)
{
    (void)gfp;
    struct sk_buff* n = skb_alloc(skb->end, func, mod);
    if (!n)
        return NULL;
    unsigned int headroom = skb_headroom(skb);
    memcpy(n->head, skb->head, skb->end);
    n->data = n->head + headroom;
    n->tail = skb->tail;
    n->len = skb->len;
    n->dev = skb->dev;
    n->protocol = skb->protocol;
    n->priority = skb->priority;
    n->pkt_type = skb->pkt_type;
    n->ip_summed = skb->ip_summed;
    n->queue_mapping = skb->queue_mapping;
    n->mac_header = skb->mac_header;
    n->network_header = skb->network_header;
    n->transport_header = skb->transport_header;
    n->tstamp = skb->tstamp;
    memcpy(n->cb, skb->cb, sizeof(n->cb));
    return n;
}

static bool in_quarantine(const struct sk_buff* skb)
{
    for (unsigned int i = 0; i < QUARANTINE; i++)
        if (quarantine[i] == skb)
            return true;
    return false;
}

void lx_emul_kfree_skb(struct sk_buff* skb, const char* func)
{
    char who[192];
    if (!skb)
        return;
    /* A quarantined struct still says FREED (it is not reused while quarantined), so only a
     * struct that is not live needs the scan of the quarantine: one per free was a tenth of a
     * run where the driver frees an skb per frame. */
    if (skb->lx_magic != SKB_MAGIC_LIVE) {
        if (skb->lx_magic == SKB_MAGIC_FREED || in_quarantine(skb)) {
            describe(skb, who, sizeof(who));
            lx_kit_abort("skb double free: %s freed again by %s (first freed by %s)", who, func,
                         skb->lx_free_func ? skb->lx_free_func : "?");
        }
        lx_kit_abort("%s: freeing %p, which is not a live sk_buff", func, (void*)skb);
    }
    if (!refcount_dec_and_test(&skb->users))
        return;
    /* skb_release_head_state: the destructor runs before the data goes. */
    if (skb->destructor)
        skb->destructor(skb);
    check_guards(skb, func, true);
    list_del(&skb->lx_live);
    skb_live_n--;
    lx_emul_skb_buf_free(skb->head);
    skb->head = skb->data = NULL;
    skb->lx_magic = SKB_MAGIC_FREED;
    skb->lx_free_func = func;
    /* Keep the struct for a while so that a second free can still name the skb. */
    struct_free(quarantine[quarantine_pos]);
    quarantine[quarantine_pos] = skb;
    quarantine_pos = (quarantine_pos + 1) % QUARANTINE;
}

void lx_emul_skb_park(struct sk_buff* skb)
{
    if (skb->lx_magic != SKB_MAGIC_LIVE)
        lx_kit_abort("lx_emul_skb_park: %p is not a live sk_buff", (void*)skb);
    list_del(&skb->lx_live);
    skb_live_n--;
    skb->lx_magic = SKB_MAGIC_PARKED;
}

void lx_emul_skb_unpark(struct sk_buff* skb)
{
    if (skb->lx_magic != SKB_MAGIC_PARKED)
        lx_kit_abort("lx_emul_skb_unpark: %p is not a parked sk_buff", (void*)skb);
    skb->lx_magic = SKB_MAGIC_LIVE;
    list_add_tail(&skb->lx_live, &skb_live);
    skb_live_n++;
}

void lx_emul_skb_check(const struct sk_buff* skb, const char* where)
{
    if (skb->lx_magic != SKB_MAGIC_LIVE)
        lx_kit_abort("%s: %p is not a live sk_buff", where, (const void*)skb);
    check_guards(skb, where, false);
}

void lx_emul_skb_panic(const struct sk_buff* skb, unsigned int len, const char* op,
                       const char* func)
{
    char who[192];
    describe(skb, who, sizeof(who));
    lx_kit_abort("%s: %s(len %u) in %s: data at head+%u, len %u, tail %u, end %u — would write "
                 "%s the buffer",
                 op, op, len, func, skb_headroom(skb), skb->len, skb->tail, skb->end,
                 strcmp(op, "skb_push") == 0 ? "before the start of" : "past the end of");
}

int skb_copy_bits(const struct sk_buff* skb, int offset, void* to, int len)
{
    if (offset < 0 || len < 0 || (unsigned int)offset + (unsigned int)len > skb->len)
        return -EFAULT;
    memcpy(to, skb->data + offset, (size_t)len);
    return 0;
}

/* ---- locked queue operations ---- */

#include <lx_emul/skb_queue_locked.h>

void skb_queue_purge(struct sk_buff_head* list)
{
    struct sk_buff* skb;
    while ((skb = skb_dequeue(list)) != NULL)
        kfree_skb(skb);
}

/* ---- accounting and C++ accessors ---- */

size_t lx_emul_skb_live_count(void) { return skb_live_n; }

size_t lx_emul_skb_report_leaks(void)
{
    struct sk_buff* skb;
    char who[192], line[256];
    size_t n = 0;
    list_for_each_entry(skb, &skb_live, lx_live) {
        if (n++ < 16) {
            describe(skb, who, sizeof(who));
            lx_emul_snprintf(line, sizeof(line), "lx_emul: leak: %s, len %u, never freed", who,
                             skb->len);
            lx_kit_log(4, "lx_emul", line);
        }
    }
    if (n > 16) {
        lx_emul_snprintf(line, sizeof(line), "lx_emul: leak: %zu skbs in total", n);
        lx_kit_log(4, "lx_emul", line);
    }
    return n;
}

void lx_emul_skb_check_all(void)
{
    struct sk_buff* skb;
    list_for_each_entry(skb, &skb_live, lx_live)
        check_guards(skb, "lx_emul_skb_check_all", false);
}

unsigned long lx_emul_skb_slack_writes(void) { return slack_writes; }
unsigned char* lx_emul_skb_data(void* skb) { return ((struct sk_buff*)skb)->data; }
unsigned int lx_emul_skb_len(const void* skb) { return ((const struct sk_buff*)skb)->len; }
void* lx_emul_skb_alloc_for_rx(unsigned int len, const char* who)
{
    return lx_emul_netdev_alloc_skb(NULL, len, GFP_ATOMIC, 0, who, "testbench");
}
void lx_emul_skb_free(void* skb, const char* who) { lx_emul_kfree_skb(skb, who); }
