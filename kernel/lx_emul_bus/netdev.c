// SPDX-License-Identifier: MIT
/* net_device life cycle, queue/carrier state, netif_rx delivery, etherdev helpers, and the
 * testbench's netdev controls (nicsim/lx_bus.h). Kernel semantics followed where a driver can
 * observe them: register_netdev calls ndo_init, marks the device present, carrier on (a new
 * device has no NOCARRIER bit until the driver clears it); the queue starts stopped until
 * ndo_open's netif_start_queue. */
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/slab.h>
#include <linux/skbuff.h>

#include <lx_emul/shared.h>
#include <lx_kit/lx_kit.h>
#include <nicsim/lx_bus.h>
#include <nicsim/lx_bus_emulation.h>

#include <stdio.h>

#define LX_NETDEV_MAX 32

struct lx_netdev_entry {
    struct net_device* dev;
    const char* modname;
    const char* variant;
};
static struct lx_netdev_entry registered[LX_NETDEV_MAX];
static unsigned registered_count;
static unsigned name_counter; /* for "eth%d"-style names */

static struct net_device* alloc_netdev_common(int sizeof_priv)
{
    struct net_device* dev = kzalloc(sizeof(*dev), GFP_KERNEL);
    if (!dev)
        return NULL;
    /* The kernel aligns the private area to NETDEV_ALIGN (32); so does nicsim. */
    dev->nicsim_priv = kzalloc(sizeof_priv > 0 ? (size_t)sizeof_priv : 1, GFP_KERNEL);
    if (!dev->nicsim_priv) {
        kfree(dev);
        return NULL;
    }
    strcpy(dev->name, "eth%d");
    dev->mtu = ETH_DATA_LEN;
    dev->type = 1; /* ARPHRD_ETHER */
    dev->hard_header_len = ETH_HLEN;
    dev->addr_len = ETH_ALEN;
    dev->flags = IFF_BROADCAST | IFF_MULTICAST;
    memset(dev->broadcast, 0xff, ETH_ALEN);
    dev->dev_addr = dev->nicsim_addr;
    INIT_LIST_HEAD(&dev->mc.list);
    dev->nicsim_queue_stopped = true;
    return dev;
}

struct net_device* alloc_etherdev_mqs(int sizeof_priv, unsigned int txqs, unsigned int rxqs)
{
    return alloc_netdev_common(sizeof_priv);
}

struct net_device* devm_alloc_etherdev_mqs(struct device* parent, int sizeof_priv,
                                           unsigned int txqs, unsigned int rxqs)
{
    struct net_device* dev = alloc_netdev_common(sizeof_priv);
    if (dev)
        dev->nicsim_devm = true; /* freed with the device, i.e. never during a run */
    return dev;
}

static void drop_requeued(struct net_device* dev); /* below, with the transmit path */

void free_netdev(struct net_device* dev)
{
    if (!dev)
        return;
    for (unsigned i = 0; i < registered_count; i++)
        if (registered[i].dev == dev)
            lx_kit_abort("free_netdev(%s): device still registered", dev->name);
    kfree(dev->nicsim_priv);
    kfree(dev);
}

static void bound_driver(const struct net_device* dev, const char** modname, const char** variant)
{
    *modname = NULL;
    *variant = NULL;
    for (const struct device* d = dev->dev.parent; d; d = d->parent) {
        if (d->nicsim_modname) {
            *modname = d->nicsim_modname;
            *variant = d->nicsim_variant;
            return;
        }
    }
}

int register_netdev(struct net_device* dev)
{
    if (dev->nicsim_registered)
        lx_kit_abort("register_netdev(%s): registered twice", dev->name);
    if (registered_count == LX_NETDEV_MAX)
        lx_kit_abort("register_netdev: more than %d network devices", LX_NETDEV_MAX);
    if (strchr(dev->name, '%')) {
        char name[IFNAMSIZ];
        snprintf(name, sizeof(name), dev->name, name_counter++);
        strcpy(dev->name, name);
    }
    if (dev->netdev_ops && dev->netdev_ops->ndo_init) {
        int ret = dev->netdev_ops->ndo_init(dev);
        if (ret)
            return ret;
    }
    dev->nicsim_registered = true;
    dev->nicsim_present = true;
    dev->nicsim_carrier = true; /* no __LINK_STATE_NOCARRIER until netif_carrier_off */
    struct lx_netdev_entry* e = &registered[registered_count++];
    e->dev = dev;
    bound_driver(dev, &e->modname, &e->variant);
    return 0;
}

void unregister_netdev(struct net_device* dev)
{
    for (unsigned i = 0; i < registered_count; i++) {
        if (registered[i].dev != dev)
            continue;
        drop_requeued(dev);
        if (dev->nicsim_running && dev->netdev_ops->ndo_stop)
            dev->netdev_ops->ndo_stop(dev);
        dev->nicsim_running = false;
        dev->nicsim_registered = false;
        registered[i] = registered[--registered_count];
        if (dev->needs_free_netdev)
            free_netdev(dev);
        return;
    }
}

int cfg80211_register_netdevice(struct net_device* dev) { return register_netdev(dev); }
void cfg80211_unregister_netdevice(struct net_device* dev) { unregister_netdev(dev); }

void netif_start_queue(struct net_device* dev) { dev->nicsim_queue_stopped = false; }
void netif_stop_queue(struct net_device* dev) { dev->nicsim_queue_stopped = true; }
/* netif_tx_wake_queue: clears DRV_XOFF and, if it was set, __netif_schedule()s the qdisc. */
void netif_wake_queue(struct net_device* dev)
{
    const bool was_stopped = dev->nicsim_queue_stopped;
    dev->nicsim_queue_stopped = false;
    if (was_stopped && dev->nicsim_wake_fn)
        dev->nicsim_wake_fn(dev->nicsim_wake_ctx, dev);
}
void netif_carrier_on(struct net_device* dev) { dev->nicsim_carrier = true; }
void netif_carrier_off(struct net_device* dev) { dev->nicsim_carrier = false; }
void netif_device_attach(struct net_device* dev)
{
    dev->nicsim_present = true;
    if (dev->nicsim_running)
        dev->nicsim_queue_stopped = false;
}
void netif_device_detach(struct net_device* dev)
{
    dev->nicsim_present = false;
    dev->nicsim_queue_stopped = true;
}

int netif_rx(struct sk_buff* skb)
{
    struct net_device* dev = skb->dev;
    if (!dev)
        lx_kit_abort("netif_rx: skb without dev (eth_type_trans not called?)");
    dev->nicsim_rx_count++;
    if (dev->nicsim_rx_sink) {
        const u8* mac = skb->head + skb->mac_header;
        size_t len = skb->len + (size_t)(skb->data - mac);
        dev->nicsim_rx_sink(dev->nicsim_rx_ctx, dev, mac, len);
    }
    kfree_skb(skb);
    return 0; /* NET_RX_SUCCESS */
}

__be16 eth_type_trans(struct sk_buff* skb, struct net_device* dev)
{
    const struct ethhdr* eth;

    skb->dev = dev;
    skb_reset_mac_header(skb);
    eth = (const struct ethhdr*)skb->data;
    skb_pull(skb, ETH_HLEN);
    skb_reset_network_header(skb);
    if (ntohs(eth->h_proto) >= ETH_P_802_3_MIN)
        return eth->h_proto;
    return htons(ETH_P_802_2);
}

int eth_validate_addr(struct net_device* dev)
{
    return is_valid_ether_addr(dev->dev_addr) ? 0 : -EADDRNOTAVAIL;
}

int eth_prepare_mac_addr_change(struct net_device* dev, void* p)
{
    const struct sockaddr* addr = p;
    if (!is_valid_ether_addr((const u8*)addr->sa_data))
        return -EADDRNOTAVAIL;
    return 0;
}

void eth_commit_mac_addr_change(struct net_device* dev, void* p)
{
    const struct sockaddr* addr = p;
    eth_hw_addr_set(dev, (const u8*)addr->sa_data);
}

int eth_mac_addr(struct net_device* dev, void* p)
{
    int ret = eth_prepare_mac_addr_change(dev, p);
    if (ret < 0)
        return ret;
    eth_commit_mac_addr_change(dev, p);
    return 0;
}

/* Deterministic "random" MAC: locally administered, unicast, from a counter (xorshift). */
void eth_random_addr(u8* addr)
{
    lx_emul_random_bytes(addr, ETH_ALEN);
    addr[0] &= 0xfe; /* clear multicast bit */
    addr[0] |= 0x02; /* set local assignment bit */
}

const char* lx_emul_netdev_log_name(const struct net_device* dev, char* buf, size_t size)
{
    snprintf(buf, size, "%s", dev ? dev->name : "(null net_device)");
    return buf;
}

const char* lx_emul_dev_log_name(const struct device* dev, char* buf, size_t size)
{
    snprintf(buf, size, "%s", dev_name(dev));
    return buf;
}

/* ---- testbench controls ---------------------------------------------------------------------- */

struct net_device* lx_bus_netdev_find(const char* modname, const char* variant, unsigned index)
{
    for (unsigned i = 0; i < registered_count; i++) {
        const struct lx_netdev_entry* e = &registered[i];
        if (!e->modname || strcmp(e->modname, modname) || strcmp(e->variant, variant))
            continue;
        if (index-- == 0)
            return e->dev;
    }
    return NULL;
}

/* A net device of another emulation (nicsim/lx_bus_emulation.h) is its emulation's. */
#define OTHER_EMULATION(dev, call)                                                                 \
    do {                                                                                           \
        const struct lx_bus_emulation* emu_ = lx_bus_device_emulation(dev);                        \
        if (emu_)                                                                                  \
            return emu_->call;                                                                     \
    } while (0)

const char* lx_bus_netdev_name(const struct net_device* dev)
{
    OTHER_EMULATION(dev, netdev_name(dev));
    return dev->name;
}

const uint8_t* lx_bus_netdev_addr(const struct net_device* dev)
{
    OTHER_EMULATION(dev, netdev_addr(dev));
    return dev->dev_addr;
}

int lx_emul_netdev_open(struct net_device* dev)
{
    OTHER_EMULATION(dev, netdev_open(dev));
    const struct net_device_ops* ops = dev->netdev_ops;
    int ret = 0;
    if (!dev->nicsim_registered)
        lx_kit_abort("lx_emul_netdev_open(%s): device not registered", dev->name);
    if (dev->nicsim_running)
        return 0;
    if (!dev->nicsim_present)
        return -ENODEV;
    /* __dev_open: validate the address, then ndo_open; the device is marked running first. */
    if (ops->ndo_validate_addr)
        ret = ops->ndo_validate_addr(dev);
    if (!ret && ops->ndo_open) {
        dev->nicsim_running = true;
        ret = ops->ndo_open(dev);
    }
    if (ret) {
        dev->nicsim_running = false;
        lx_kit_time_sync();
        return ret;
    }
    dev->nicsim_running = true;
    dev->flags |= IFF_UP;
    if (ops->ndo_set_rx_mode) /* dev_set_rx_mode after a successful open */
        ops->ndo_set_rx_mode(dev);
    lx_kit_time_sync();
    return 0;
}

int lx_emul_netdev_stop(struct net_device* dev)
{
    OTHER_EMULATION(dev, netdev_stop(dev));
    int ret = 0;
    if (!dev->nicsim_running)
        return 0;
    /* __dev_close_many: __LINK_STATE_START is cleared (netif_running() false) and the qdisc
     * deactivated before ndo_stop runs; from here on frames for the device are dropped. */
    dev->nicsim_running = false;
    drop_requeued(dev);
    if (dev->netdev_ops->ndo_stop)
        ret = dev->netdev_ops->ndo_stop(dev);
    dev->flags &= ~IFF_UP;
    lx_kit_time_sync();
    return ret;
}

/* The skb's destructor while the testbench's stack owns its memory accounting: tells the owner
 * (e.g. TCP Small Queues' tcp_wfree) that the driver let go of it. */
static void lx_emul_owner_destructor(struct sk_buff* skb)
{
    void (*fn)(void*, uint64_t) = skb->lx_owner_free;
    skb->lx_owner_free = NULL;
    if (fn)
        fn(skb->lx_owner_ctx, skb->lx_owner_cookie);
}

/* dev_queue_xmit's last step for one frame: an skb as the stack builds it, ndo_start_xmit. `who`
 * names the caller in aborts and as the skb's allocation site. */
#define XMIT_HEADROOM LX_EMUL_XMIT_HEADROOM

/* dev_requeue_skb: the skb the driver refused waits in the qdisc and is offered again as it is.
 * The parked skb when it still carries exactly `frame` (unchanged by the driver, which must not
 * touch an skb it refuses), else NULL; one parked for another frame is dropped. */
static struct sk_buff* take_requeued(struct net_device* dev, const void* frame, size_t len)
{
    struct sk_buff* skb = dev->nicsim_requeued;

    if (!skb)
        return NULL;
    dev->nicsim_requeued = NULL;
    lx_emul_skb_unpark(skb);
    if (skb->len == len && skb->data == skb->head + XMIT_HEADROOM &&
        memcmp(skb->data, frame, len) == 0)
        return skb;
    kfree_skb(skb);
    return NULL;
}

/* qdisc_reset on dev_deactivate: a requeued skb is freed with the qdisc's other packets. */
static void drop_requeued(struct net_device* dev)
{
    struct sk_buff* skb = dev->nicsim_requeued;

    if (!skb)
        return;
    dev->nicsim_requeued = NULL;
    lx_emul_skb_unpark(skb);
    kfree_skb(skb);
}

static int xmit_frame(struct net_device* dev, const void* frame, size_t len,
                      lx_bus_skb_free_fn on_free, void* ctx, uint64_t cookie, const char* who,
                      int sync_on_return)
{
    struct sk_buff* skb;
    netdev_tx_t rc;

    if (len < ETH_HLEN)
        lx_kit_abort("%s(%s): frame of %zu bytes has no Ethernet header", who, dev->name, len);
    if (!dev->nicsim_running) {
        /* A device that is down has the noop qdisc (dev_deactivate): the frame is dropped and
         * its owner's accounting returned, without reaching the driver. */
        drop_requeued(dev);
        if (on_free)
            on_free(ctx, cookie);
        return NETDEV_TX_OK;
    }
    skb = take_requeued(dev, frame, len);
    if (!skb) {
        skb = lx_emul_alloc_skb(len + XMIT_HEADROOM, GFP_KERNEL, who, LX_EMUL_MODNAME);
        if (!skb)
            lx_kit_abort("%s(%s): out of memory", who, dev->name);
        skb_reserve(skb, XMIT_HEADROOM);
        skb_put_data(skb, frame, len);
    }
    skb->dev = dev;
    skb_reset_mac_header(skb);
    skb_set_network_header(skb, ETH_HLEN);
    skb->protocol = ((const struct ethhdr*)frame)->h_proto;
    if (on_free) {
        skb->lx_owner_free = on_free;
        skb->lx_owner_ctx = ctx;
        skb->lx_owner_cookie = cookie;
        skb->destructor = lx_emul_owner_destructor;
    }
    rc = dev->netdev_ops->ndo_start_xmit(skb, dev);
    if (rc == NETDEV_TX_BUSY) {
        /* The qdisc requeues the skb (dev_requeue_skb): the owner keeps its accounting, and the
         * next offer of this frame gets the same skb. */
        skb->destructor = NULL;
        skb->lx_owner_free = NULL;
        lx_emul_skb_park(skb);
        dev->nicsim_requeued = skb;
    }
    if (sync_on_return)
        lx_kit_time_sync(); /* back to a caller that runs in SystemC time */
    else
        lx_kit_time_charge(); /* the caller runs on local time */
    return rc;
}

int lx_emul_netdev_xmit(struct net_device* dev, const void* frame, size_t len)
{
    OTHER_EMULATION(dev, netdev_xmit(dev, frame, len));
    return xmit_frame(dev, frame, len, NULL, NULL, 0, "lx_emul_netdev_xmit", 1);
}

int lx_emul_netdev_xmit_owned(struct net_device* dev, const void* frame, size_t len,
                              lx_bus_skb_free_fn on_free, void* ctx, uint64_t cookie)
{
    OTHER_EMULATION(dev, netdev_xmit_owned(dev, frame, len, on_free, ctx, cookie));
    return xmit_frame(dev, frame, len, on_free, ctx, cookie, "lx_emul_netdev_xmit_owned", 0);
}

void lx_emul_netdev_set_queue_wake(struct net_device* dev, lx_bus_queue_wake_fn fn, void* ctx)
{
    const struct lx_bus_emulation* emu = lx_bus_device_emulation(dev);
    if (emu) {
        emu->netdev_set_queue_wake(dev, fn, ctx);
        return;
    }
    dev->nicsim_wake_fn = fn;
    dev->nicsim_wake_ctx = ctx;
}

void lx_emul_netdev_set_rx_sink(struct net_device* dev, lx_bus_rx_fn fn, void* ctx)
{
    const struct lx_bus_emulation* emu = lx_bus_device_emulation(dev);
    if (emu) {
        emu->netdev_set_rx_sink(dev, fn, ctx);
        return;
    }
    dev->nicsim_rx_sink = fn;
    dev->nicsim_rx_ctx = ctx;
}

void lx_bus_netdev_state(const struct net_device* dev, struct lx_bus_netdev_state* out)
{
    const struct lx_bus_emulation* emu = lx_bus_device_emulation(dev);
    if (emu) {
        emu->netdev_state(dev, out);
        return;
    }
    /* wilc1000 keeps its counters behind ndo_get_stats (vif->netstats). */
    const struct net_device_stats* st =
        dev->netdev_ops && dev->netdev_ops->ndo_get_stats
            ? dev->netdev_ops->ndo_get_stats((struct net_device*)dev)
            : &dev->stats;
    memset(out, 0, sizeof(*out));
    out->registered = dev->nicsim_registered;
    out->running = dev->nicsim_running;
    out->queue_stopped = dev->nicsim_queue_stopped;
    out->carrier = dev->nicsim_carrier;
    out->present = dev->nicsim_present;
    LX_BUS_NETDEV_COUNTERS(out, st);
    out->netif_rx_calls = dev->nicsim_rx_count;
}
