// SPDX-License-Identifier: MIT
/* lx_emul_real: the testbench's transmit on the kernel's sk_buff (lx_real_netdev_xmit,
 * lx_emul/real.h), what dev_queue_xmit leaves the driver: an skb as the stack builds one, the
 * frame after the stack's headroom, handed to ndo_start_xmit. The qdisc's requeue of a refused
 * frame and the skb's owner (TCP Small Queues' destructor) are the shadow-header emulation's
 * only (docs/driver-build.md, "What is left"). */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include <lx_emul/real.h>
#include <lx_emul/shared.h>

#include "internal.h"

int lx_real_netdev_xmit(struct net_device *dev, const void *frame, size_t len)
{
    if (len < ETH_HLEN)
        lx_kit_abort("lx_real_netdev_xmit(%s): frame of %zu bytes has no Ethernet header",
                     dev->name, len);
    if (!netif_running(dev))
        return NETDEV_TX_OK; /* a device that is down has the noop qdisc */
    struct sk_buff *skb = alloc_skb(len + LX_EMUL_XMIT_HEADROOM, GFP_KERNEL);
    if (!skb)
        lx_kit_abort("lx_real_netdev_xmit(%s): out of memory", dev->name);
    skb_reserve(skb, LX_EMUL_XMIT_HEADROOM);
    skb_put_data(skb, frame, len);
    skb->dev = dev;
    skb_reset_mac_header(skb);
    skb_set_network_header(skb, ETH_HLEN);
    skb->protocol = ((const struct ethhdr *)frame)->h_proto;
    netdev_tx_t rc = dev->netdev_ops->ndo_start_xmit(skb, dev);
    if (rc == NETDEV_TX_BUSY)
        kfree_skb(skb);
    lx_kit_time_sync(); /* back to a caller that runs in SystemC time */
    return rc;
}
