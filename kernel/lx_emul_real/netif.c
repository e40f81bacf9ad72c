// SPDX-License-Identifier: MIT
/* lx_emul_real: a net device's TX queue, carrier and presence state and its receive path, on the
 * kernel's bits: a queue is stopped while __QUEUE_STATE_DRV_XOFF is set in its state (what the
 * headers' inline netif_stop_queue sets and netif_queue_stopped reads), the carrier is off while
 * __LINK_STATE_NOCARRIER is set, the device present while __LINK_STATE_PRESENT is. Restarting a
 * stopped queue calls the testbench's wake hook where the kernel reschedules the qdisc;
 * netif_rx hands the frame, from its MAC header, to the testbench's receive hook and frees the
 * skb, as the shadow headers' netif_rx does. The hooks are kept beside the device. */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include <lx_emul/real.h>
#include <lx_emul/shared.h>

#include "internal.h"

struct netdev_hooks {
    lx_real_rx_fn rx;
    void *rx_ctx;
    lx_real_queue_wake_fn wake;
    void *wake_ctx;
    unsigned long rx_calls;
    struct sk_buff *requeued;
};

static struct netdev_hooks *hooks_of(const struct net_device *dev)
{
    return lx_real_side(dev, sizeof(struct netdev_hooks));
}

void lx_real_netdev_forget(const struct net_device *dev)
{
    lx_real_side_reset(dev, sizeof(struct netdev_hooks));
}

struct sk_buff **lx_real_netdev_requeued(const struct net_device *dev)
{
    return &hooks_of(dev)->requeued;
}

void lx_real_netdev_set_rx_sink(struct net_device *dev, lx_real_rx_fn fn, void *ctx)
{
    hooks_of(dev)->rx = fn;
    hooks_of(dev)->rx_ctx = ctx;
}

void lx_real_netdev_set_queue_wake(struct net_device *dev, lx_real_queue_wake_fn fn, void *ctx)
{
    hooks_of(dev)->wake = fn;
    hooks_of(dev)->wake_ctx = ctx;
}

unsigned long lx_real_netdev_rx_calls(const struct net_device *dev)
{
    return hooks_of(dev)->rx_calls;
}

void netif_tx_wake_queue(struct netdev_queue *dev_queue)
{
    if (test_and_clear_bit(__QUEUE_STATE_DRV_XOFF, &dev_queue->state)) {
        struct netdev_hooks *h = hooks_of(dev_queue->dev);
        if (h->wake)
            h->wake(h->wake_ctx, dev_queue->dev);
    }
}

void netif_tx_stop_all_queues(struct net_device *dev)
{
    for (unsigned int i = 0; i < dev->num_tx_queues; i++)
        netif_tx_stop_queue(netdev_get_tx_queue(dev, i));
}

void netif_carrier_on(struct net_device *dev)
{
    if (test_and_clear_bit(__LINK_STATE_NOCARRIER, &dev->state) &&
        dev->reg_state != NETREG_UNINITIALIZED)
        atomic_inc(&dev->carrier_up_count);
}

void netif_carrier_off(struct net_device *dev)
{
    if (!test_and_set_bit(__LINK_STATE_NOCARRIER, &dev->state) &&
        dev->reg_state != NETREG_UNINITIALIZED)
        atomic_inc(&dev->carrier_down_count);
}

void netif_device_detach(struct net_device *dev)
{
    if (test_and_clear_bit(__LINK_STATE_PRESENT, &dev->state) && netif_running(dev))
        netif_tx_stop_all_queues(dev);
}

void netif_device_attach(struct net_device *dev)
{
    if (!test_and_set_bit(__LINK_STATE_PRESENT, &dev->state) && netif_running(dev))
        netif_tx_wake_all_queues(dev);
}

int netif_rx(struct sk_buff *skb)
{
    struct net_device *dev = skb->dev;
    if (!dev || !skb_mac_header_was_set(skb))
        lx_kit_abort("netif_rx: skb without %s (eth_type_trans not called?)",
                     dev ? "MAC header" : "dev");
    struct netdev_hooks *h = hooks_of(dev);
    h->rx_calls++;
    if (h->rx) {
        const u8 *mac = skb_mac_header(skb);
        h->rx(h->rx_ctx, dev, mac, skb->len + (size_t)(skb->data - mac));
    }
    kfree_skb(skb);
    return NET_RX_SUCCESS;
}

/* The Ethernet header's destination classifies the frame (for this host, broadcast, multicast or
 * another host's); a type field below ETH_P_802_3_MIN is a length: 802.3 with an LLC header,
 * or raw 802.3 (IPX) when the payload starts with 0xffff. */
__be16 eth_type_trans(struct sk_buff *skb, struct net_device *dev)
{
    skb->dev = dev;
    skb_reset_mac_header(skb);
    const struct ethhdr *eth = (const struct ethhdr *)skb->data;
    if (skb->len < ETH_HLEN)
        lx_kit_abort("eth_type_trans(%s): %u bytes, no Ethernet header", dev->name, skb->len);
    __skb_pull(skb, ETH_HLEN);
    if (is_multicast_ether_addr(eth->h_dest))
        skb->pkt_type = ether_addr_equal(eth->h_dest, dev->broadcast) ? PACKET_BROADCAST
                                                                       : PACKET_MULTICAST;
    else if (!ether_addr_equal(eth->h_dest, dev->dev_addr))
        skb->pkt_type = PACKET_OTHERHOST;
    if (eth_proto_is_802_3(eth->h_proto))
        return eth->h_proto;
    if (skb->len >= 2 && *(const u16 *)skb->data == 0xffff)
        return htons(ETH_P_802_3);
    return htons(ETH_P_802_2);
}

int eth_validate_addr(struct net_device *dev)
{
    return is_valid_ether_addr(dev->dev_addr) ? 0 : -EADDRNOTAVAIL;
}
