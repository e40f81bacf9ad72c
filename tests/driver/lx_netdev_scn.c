// SPDX-License-Identifier: MIT
/* A stand-in network driver for the netdev emulation's transmit path: its ndo_start_xmit refuses
 * the next `refuse` offers with NETDEV_TX_BUSY without touching the skb (as ks8851_par does
 * while its TXQ is full) and records every skb it is offered. */
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/skbuff.h>

#include <lx_kit/lx_emul_api.h>
#include <nicsim/lx_bus.h>

#include "lx_netdev_scn.h"

static struct lx_test_xmit_log* g_log;
static int g_refuse;

static netdev_tx_t refusing_xmit(struct sk_buff* skb, struct net_device* dev)
{
    if (g_log->offers < LX_TEST_MAX_OFFERS) {
        g_log->skb[g_log->offers] = skb;
        g_log->len[g_log->offers] = skb->len;
        g_log->live_during[g_log->offers] = lx_emul_skb_live_count();
    }
    g_log->offers++;
    if (g_refuse > 0) {
        g_refuse--;
        return NETDEV_TX_BUSY;
    }
    dev_kfree_skb(skb);
    return NETDEV_TX_OK;
}

static int nop_open(struct net_device* dev) { return 0; }
static int nop_stop(struct net_device* dev) { return 0; }

static const struct net_device_ops refusing_ops = {
    .ndo_open = nop_open,
    .ndo_stop = nop_stop,
    .ndo_start_xmit = refusing_xmit,
};

void* lx_test_netdev_up(struct lx_test_xmit_log* log)
{
    struct net_device* dev = alloc_etherdev(0);

    g_log = log;
    dev->netdev_ops = &refusing_ops;
    strcpy(dev->name, "test%d");
    if (register_netdev(dev) || lx_emul_netdev_open(dev))
        return NULL;
    return dev;
}

int lx_test_netdev_xmit(void* dev, const unsigned char* frame, unsigned len, int refuse)
{
    g_refuse = refuse;
    return lx_emul_netdev_xmit(dev, frame, len);
}

void lx_test_netdev_down(void* dev)
{
    lx_emul_netdev_stop(dev);
    unregister_netdev(dev);
    free_netdev(dev);
}
