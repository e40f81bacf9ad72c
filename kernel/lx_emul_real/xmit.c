// SPDX-License-Identifier: MIT
/* lx_emul_real: the testbench's transmit on the kernel's sk_buff (lx_real_netdev_xmit and
 * _xmit_owned, lx_emul/real.h), what dev_queue_xmit leaves the driver: an skb as the stack builds
 * one, the frame after the stack's headroom, handed to ndo_start_xmit. A frame the driver refuses
 * (NETDEV_TX_BUSY) stays with the qdisc (dev_requeue_skb) and the same skb is offered again with
 * that frame; its owner keeps the frame's accounting until the driver frees it. A device that is
 * down has the noop qdisc: the frame is dropped and its owner told at once. */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/string.h>

#include <lx_emul/real.h>
#include <lx_emul/shared.h>

#include "internal.h"

void lx_real_netdev_drop_requeued(const struct net_device *dev)
{
    struct sk_buff **requeued = lx_real_netdev_requeued(dev);
    struct sk_buff *skb = *requeued;
    *requeued = NULL;
    if (skb)
        kfree_skb(skb);
}

/* The requeued skb when it still carries exactly `frame` (the driver must not touch an skb it
 * refuses), else NULL; one requeued for another frame is dropped. */
static struct sk_buff *take_requeued(struct net_device *dev, const void *frame, size_t len)
{
    struct sk_buff **requeued = lx_real_netdev_requeued(dev);
    struct sk_buff *skb = *requeued;
    if (!skb)
        return NULL;
    *requeued = NULL;
    if (skb->len == len && skb->data == skb->head + LX_EMUL_XMIT_HEADROOM &&
        memcmp(skb->data, frame, len) == 0)
        return skb;
    kfree_skb(skb);
    return NULL;
}

/* skb->destructor while the stack owns the frame's accounting (tcp_wfree's place). */
static void owner_destructor(struct sk_buff *skb)
{
    struct lx_real_skb_owner *o = lx_real_skb_owner_of(skb);
    void (*fn)(void *, u64) = o->free;
    o->free = NULL;
    if (fn)
        fn(o->ctx, o->cookie);
}

static int xmit(struct net_device *dev, const void *frame, size_t len, lx_real_skb_free_fn on_free,
                void *ctx, u64 cookie, const char *who)
{
    if (len < ETH_HLEN)
        lx_kit_abort("%s(%s): frame of %zu bytes has no Ethernet header", who, dev->name, len);
    if (!netif_running(dev)) {
        lx_real_netdev_drop_requeued(dev);
        if (on_free)
            on_free(ctx, cookie);
        return NETDEV_TX_OK;
    }
    struct sk_buff *skb = take_requeued(dev, frame, len);
    if (!skb) {
        skb = alloc_skb(len + LX_EMUL_XMIT_HEADROOM, GFP_KERNEL);
        if (!skb)
            lx_kit_abort("%s(%s): out of memory", who, dev->name);
        skb_reserve(skb, LX_EMUL_XMIT_HEADROOM);
        skb_put_data(skb, frame, len);
    }
    skb->dev = dev;
    skb_reset_mac_header(skb);
    skb_set_network_header(skb, ETH_HLEN);
    skb->protocol = ((const struct ethhdr *)frame)->h_proto;
    if (on_free) {
        struct lx_real_skb_owner *o = lx_real_skb_owner_of(skb);
        o->free = on_free;
        o->ctx = ctx;
        o->cookie = cookie;
        skb->destructor = owner_destructor;
    }
    netdev_tx_t rc = dev->netdev_ops->ndo_start_xmit(skb, dev);
    if (rc == NETDEV_TX_BUSY) {
        skb->destructor = NULL; /* the owner keeps the frame until it is offered again */
        lx_real_skb_owner_of(skb)->free = NULL;
        *lx_real_netdev_requeued(dev) = skb;
    }
    return rc;
}

int lx_real_netdev_xmit(struct net_device *dev, const void *frame, size_t len)
{
    int rc = xmit(dev, frame, len, NULL, NULL, 0, "lx_real_netdev_xmit");
    lx_kit_time_sync(); /* back to a caller that runs in SystemC time */
    return rc;
}

int lx_real_netdev_xmit_owned(struct net_device *dev, const void *frame, size_t len,
                              lx_real_skb_free_fn on_free, void *ctx, u64 cookie)
{
    int rc = xmit(dev, frame, len, on_free, ctx, cookie, "lx_real_netdev_xmit_owned");
    lx_kit_time_charge(); /* the caller runs on local time */
    return rc;
}
