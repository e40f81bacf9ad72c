// SPDX-License-Identifier: MIT
/* Scenarios for skb guards, allocation accounting, printk formatting, dummies and modules. */
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include <lx_emul/dummy.h>

#include "lx_scenarios.h"

void lx_test_skb_head_underrun(void)
{
    struct sk_buff* skb = alloc_skb(64, GFP_KERNEL);
    skb->head[-3] = 0x00; /* 3 bytes before head */
    kfree_skb(skb);
}

void lx_test_skb_tail_overrun(unsigned beyond_end)
{
    struct sk_buff* skb = alloc_skb(64, GFP_KERNEL);
    skb_end_pointer(skb)[beyond_end] = 0x00;
    kfree_skb(skb);
}

void lx_test_skb_double_free(void)
{
    struct sk_buff* skb = dev_alloc_skb(100);
    dev_kfree_skb(skb);
    dev_kfree_skb(skb);
}

void lx_test_skb_leak_one(void)
{
    struct sk_buff* skb = netdev_alloc_skb(NULL, 128);
    skb_put(skb, 10);
}

void lx_test_skb_put_past_end(void)
{
    struct sk_buff* skb = alloc_skb(16, GFP_KERNEL);
    skb_put(skb, 17);
}

unsigned lx_test_skb_rx_headroom(void)
{
    struct sk_buff* skb = netdev_alloc_skb_ip_align(NULL, 1516);
    unsigned h = skb_headroom(skb);
    /* ks8851_rx_pkts writes 8 bytes before skb->data: must stay inside the buffer. */
    unsigned char* rxpkt = (unsigned char*)skb_put(skb, 1516) - 8;
    memset(rxpkt, 0x11, 1516 + 8);
    if (skb_tailroom(skb) != 0)
        h = 0;
    kfree_skb(skb);
    return h;
}

int lx_test_skb_queue(void)
{
    struct sk_buff_head q;
    struct sk_buff *a = alloc_skb(8, GFP_KERNEL), *b = alloc_skb(8, GFP_KERNEL);
    int bad = 0;
    skb_queue_head_init(&q);
    bad |= !skb_queue_empty(&q);
    skb_queue_tail(&q, a);
    __skb_queue_tail(&q, b);
    bad |= skb_queue_len(&q) != 2;
    bad |= skb_peek(&q) != a;
    bad |= skb_dequeue(&q) != a;
    bad |= __skb_dequeue(&q) != b;
    bad |= skb_dequeue(&q) != NULL;
    bad |= !skb_queue_empty(&q);
    /* push/pull/reserve arithmetic */
    skb_reserve(a, 4);
    memcpy(skb_put(a, 3), "abc", 3);
    bad |= skb_headroom(a) != 4 || skb_tailroom(a) != 1 || a->len != 3;
    bad |= *(unsigned char*)skb_push(a, 2) != 0 || a->len != 5 || skb_headroom(a) != 2;
    bad |= skb_pull(a, 6) != NULL;
    bad |= memcmp(skb_pull(a, 2), "abc", 3) != 0;
    kfree_skb(a);
    kfree_skb(b);
    return bad;
}

void lx_test_kmalloc_leak(void)
{
    void* p = kmalloc(100, GFP_KERNEL);
    void* q = kzalloc(28, GFP_KERNEL);
    (void)p;
    (void)q;
}

int lx_test_kmalloc_contents(void)
{
    /* A block freed with known bytes, then fresh ones: kmalloc's are poisoned, kzalloc's zero. */
    unsigned char* old = kmalloc(64, GFP_KERNEL);
    memset(old, 0xa5, 64);
    kfree(old);
    unsigned char* p = kmalloc(64, GFP_KERNEL);
    unsigned char* z = kzalloc(64, GFP_KERNEL);
    int bad = 0;
    for (int i = 0; i < 64; ++i)
        bad |= (p[i] != 0x5a) | (z[i] != 0);
    kfree(p);
    kfree(z);
    return bad;
}

void lx_test_kfree_twice(void)
{
    void* p = kmalloc(10, GFP_KERNEL);
    kfree(p);
    kfree(p);
}

int lx_test_format(char* buf, size_t size, int which)
{
    static const u8 mac[6] = {0x00, 0x11, 0x22, 0xaa, 0xbb, 0xcc};
    static const u8 ip[4] = {192, 168, 1, 20};
    static const u8 bytes[5] = {0xde, 0xad, 0xbe, 0xef, 0x01};
    switch (which) {
    case 0: return snprintf(buf, size, "MAC %pM end", mac);
    case 1: return snprintf(buf, size, "%pm", mac);
    case 2: return snprintf(buf, size, "%pI4", ip);
    case 3: return snprintf(buf, size, "%*ph", 5, bytes);
    case 4: return snprintf(buf, size, "%pe", ERR_PTR(-ENOMEM));
    case 5: return snprintf(buf, size, "%p|%pZz|%d", (void*)bytes, (void*)bytes, 7);
    case 6: return snprintf(buf, size, "%5d|%-4s|%02x|%lu|%lld|%zu", -42, "ab", 10, 123456789UL,
                            -5LL, (size_t)9);
    case 7: return snprintf(buf, size, "%pMR", mac);
    case 8: return scnprintf(buf, size, "%s", "truncated-text");
    default: return -1;
    }
}

void lx_test_dev_err(void)
{
    dev_err((struct device*)NULL, "probe failed: %d\n", -19);
    pr_info("info line %pM\n", "\x01\x02\x03\x04\x05\x06");
}

void lx_test_call_dummy(void) { lx_emul_trace_and_stop("sdio_claim_host"); }

/* ---- a module with parameters, registered by constructors ---- */
static int level = 3;
module_param(level, int, 0);
MODULE_PARM_DESC(level, "Test level");
static bool verbose_flag;
module_param_named(verbose, verbose_flag, bool, 0444);

static int lx_test_init(void) { return level == 17 ? 0 : -EINVAL; }
static void lx_test_exit(void) { level = -1; }
module_init(lx_test_init);
module_exit(lx_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("lx_emul core test module");

int lx_test_module_level(void) { return level; }
int lx_test_module_verbose(void) { return verbose_flag; }

/* ---- pure header semantics (must match the kernel bit for bit) ---- */
#include <linux/bitfield.h>
#include <linux/list.h>
#include <asm/unaligned.h>

_Static_assert(sizeof(BIT(31)) == 8, "BIT() is unsigned long");
_Static_assert(GENMASK(7, 4) == 0xf0, "GENMASK");
_Static_assert(GENMASK_ULL(63, 62) == 0xc000000000000000ULL, "GENMASK_ULL");
#define CONFIG_LX_TEST_ON 1
_Static_assert(IS_ENABLED(CONFIG_LX_TEST_ON) == 1 && IS_ENABLED(CONFIG_LX_TEST_OFF) == 0,
               "IS_ENABLED");

struct item {
    int v;
    struct list_head node;
};

static int classify(u16 proto_be)
{
    switch (proto_be) {
    case htons(0x0800): /* must be an integer constant expression (wilc wlan.c) */
        return 4;
    case htons(0x86dd):
        return 6;
    default:
        return 0;
    }
}

int lx_test_header_semantics(void)
{
    int bad = 0;
    u8 buf[8] = {0x78, 0x56, 0x34, 0x12, 0xaa, 0xbb, 0, 0};
    bad |= (FIELD_PREP(BIT(31), 2) != 0) << 0; /* wilc MGMT packets: bit 31 gets 0 */
    bad |= (FIELD_PREP(GENMASK(15, 8), 0x1ab) != 0xab00) << 1;
    bad |= (FIELD_GET(GENMASK(15, 8), 0xabcd) != 0xab) << 2;
    bad |= (cpu_to_be32(0x01020304) != 0x04030201) << 3;
    bad |= (get_unaligned_le32(buf) != 0x12345678) << 4;
    bad |= (get_unaligned_be16(buf + 4) != 0xaabb) << 5;
    bad |= (classify(htons(0x0800)) != 4 || classify(htons(0x86dd)) != 6) << 6;
    bad |= (DIV_ROUND_UP(9, 4) != 3 || ALIGN(13, 4) != 16 || min(3, 5) != 3 ||
            max_t(u8, 300, 2) != 44 || clamp(7, 1, 5) != 5) << 7;

    LIST_HEAD(head);
    struct item a = {1}, b = {2}, c = {3}, *pos;
    list_add(&a.node, &head);      /* a */
    list_add(&b.node, &head);      /* b a */
    list_add_tail(&c.node, &head); /* b a c */
    int order = 0;
    list_for_each_entry(pos, &head, node) order = order * 10 + pos->v;
    bad |= (order != 213) << 8;
    list_del(&a.node);
    bad |= (a.node.next != LIST_POISON1 || a.node.prev != LIST_POISON2) << 9;
    bad |= (list_first_entry(&head, struct item, node) != &b ||
            list_last_entry(&head, struct item, node) != &c || !list_is_last(&c.node, &head)) << 10;
    return bad;
}

void lx_scn_call_dummy_at_1ms(void* arg)
{
    (void)arg;
    msleep(0); /* schedule_timeout(1): runs until the start of tick 1 (4 ms) */
    lx_test_record(1);
    lx_emul_trace_and_stop("spi_sync");
}
