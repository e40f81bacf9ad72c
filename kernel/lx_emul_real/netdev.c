// SPDX-License-Identifier: MIT
/* lx_emul_real: the net device's life on the kernel's struct net_device. alloc_etherdev_mqs makes
 * one block as alloc_netdev_mqs + ether_setup leave it: the device, its private area where
 * netdev_priv() finds it, the TX queues (dev->_tx, each naming its device) and the address that
 * dev_addr points to, the device aligned to a cache line; the devm form ties the block to the
 * parent device's devres.
 * register_netdev expands an "eth%d" name to the first free number, runs ndo_init, marks the
 * device present with its carrier on (no __LINK_STATE_NOCARRIER yet) and registered;
 * lx_real_netdev_open/_stop are __dev_open/__dev_close as the testbench's ifup/ifdown will call
 * them, dev_close the latter for a driver. dev_addr_mod writes the address where dev_addr points and into dev_addr_shadow, the copy
 * the kernel keeps to catch direct writes; get_random_bytes draws from lx_emul's stream, so
 * eth_random_addr gives the shadow headers' addresses. The testbench's hooks on a device are kept
 * beside it (netif.c). */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/if_arp.h>
#include <linux/random.h>
#include <linux/string.h>
#include <net/pkt_sched.h>

#include <lx_emul/real.h>
#include <lx_emul/shared.h>

#include "internal.h"

#define NETDEV_MAX 32

static struct net_device *registered[NETDEV_MAX];
static int ifindex_next = 1;

/* Where netdev_priv() finds the private area: after the device aligned to NETDEV_ALIGN (6.1),
 * the flexible array priv at the end of the struct (6.12). */
static size_t priv_offset(void)
{
#if LX_REAL_KERNEL_AT_LEAST(6, 12)
    return offsetof(struct net_device, priv);
#else
    return ALIGN(sizeof(struct net_device), NETDEV_ALIGN);
#endif
}

static struct net_device *new_etherdev(void *devm_owner, int sizeof_priv, unsigned int txqs,
                                         unsigned int rxqs)
{
    if (sizeof_priv < 0 || txqs < 1 || rxqs < 1)
        lx_kit_abort("alloc_etherdev_mqs(%d, %u, %u): bad size or queue count", sizeof_priv,
                     txqs, rxqs);
    size_t queues_at = ALIGN(priv_offset() + (size_t)sizeof_priv, SMP_CACHE_BYTES);
    size_t addr_at = queues_at + txqs * sizeof(struct netdev_queue);
    /* The device cache-line aligned (so is the private area then, as the kernel's allocator
     * gives it), the padding before it recorded in the 2 bytes just before it. */
    size_t size = sizeof(u16) + SMP_CACHE_BYTES - 1 + addr_at + MAX_ADDR_LEN;
    char *block = devm_owner ? lx_emul_devm_alloc(devm_owner, size, 1, "devm_alloc_etherdev_mqs",
                                                  "lx_emul_real")
                             : lx_emul_alloc(size, 1, "alloc_etherdev_mqs", "lx_emul_real");
    if (!block)
        return NULL;
    struct net_device *dev = PTR_ALIGN((void *)(block + sizeof(u16)), SMP_CACHE_BYTES);
    ((u16 *)dev)[-1] = (u16)((char *)dev - block);
#if !LX_REAL_KERNEL_AT_LEAST(6, 12)
    dev->padded = (char *)dev - block;
#endif
#if LX_REAL_KERNEL_AT_LEAST(6, 12)
    dev->priv_len = sizeof_priv;
#endif
    strscpy(dev->name, "eth%d", sizeof(dev->name));
    dev->_tx = (struct netdev_queue *)((char *)dev + queues_at);
    dev->num_tx_queues = txqs;
    dev->real_num_tx_queues = txqs;
    for (unsigned int i = 0; i < txqs; i++)
        dev->_tx[i].dev = dev;
    dev->num_rx_queues = rxqs;
    dev->real_num_rx_queues = rxqs;
    dev->dev_addr = (unsigned char *)dev + addr_at;
    INIT_LIST_HEAD(&dev->uc.list);
    INIT_LIST_HEAD(&dev->mc.list);
    /* ether_setup */
    dev->type = ARPHRD_ETHER;
    dev->hard_header_len = ETH_HLEN;
    dev->min_header_len = ETH_HLEN;
    dev->mtu = ETH_DATA_LEN;
    dev->min_mtu = ETH_MIN_MTU;
    dev->max_mtu = ETH_DATA_LEN;
    dev->addr_len = ETH_ALEN;
    dev->tx_queue_len = DEFAULT_TX_QUEUE_LEN;
    dev->flags = IFF_BROADCAST | IFF_MULTICAST;
    dev->priv_flags |= IFF_TX_SKB_SHARING;
    eth_broadcast_addr(dev->broadcast);
    lx_real_netdev_forget(dev);
    return dev;
}

struct net_device *alloc_etherdev_mqs(int sizeof_priv, unsigned int txqs, unsigned int rxqs)
{
    return new_etherdev(NULL, sizeof_priv, txqs, rxqs);
}

struct net_device *devm_alloc_etherdev_mqs(struct device *dev, int sizeof_priv, unsigned int txqs,
                                           unsigned int rxqs)
{
    if (!dev)
        lx_kit_abort("devm_alloc_etherdev_mqs with a NULL device");
    return new_etherdev(dev, sizeof_priv, txqs, rxqs);
}

void free_netdev(struct net_device *dev)
{
    if (!dev)
        return;
    if (dev->reg_state == NETREG_REGISTERED)
        lx_kit_abort("free_netdev(%s): device still registered", dev->name);
    lx_real_netdev_forget(dev);
    kfree((char *)dev - ((u16 *)dev)[-1]);
}

/* dev_alloc_name: the lowest number no registered device's name has. */
static void expand_name(struct net_device *dev)
{
    char name[IFNAMSIZ];
    for (int n = 0;; n++) {
        lx_emul_scnprintf(name, sizeof(name), dev->name, n);
        bool used = false;
        for (int i = 0; i < NETDEV_MAX; i++)
            used |= registered[i] && strcmp(registered[i]->name, name) == 0;
        if (!used)
            break;
    }
    strscpy(dev->name, name, sizeof(dev->name));
}

int register_netdev(struct net_device *dev)
{
    if (dev->reg_state != NETREG_UNINITIALIZED)
        lx_kit_abort("register_netdev(%s): registered before", dev->name);
    int slot = 0;
    while (slot < NETDEV_MAX && registered[slot])
        slot++;
    if (slot == NETDEV_MAX)
        lx_kit_abort("register_netdev: more than %d network devices", NETDEV_MAX);
    if (strchr(dev->name, '%'))
        expand_name(dev);
    if (dev->netdev_ops && dev->netdev_ops->ndo_init) {
        int ret = dev->netdev_ops->ndo_init(dev);
        if (ret)
            return ret;
    }
    dev->ifindex = ifindex_next++;
    set_bit(__LINK_STATE_PRESENT, &dev->state);
    dev->reg_state = NETREG_REGISTERED;
    registered[slot] = dev;
    return 0;
}

struct net_device *lx_real_netdev_of_parent(const struct device *parent)
{
    for (int i = 0; i < NETDEV_MAX; i++)
        if (registered[i] && registered[i]->dev.parent == parent)
            return registered[i];
    return NULL;
}

void unregister_netdev(struct net_device *dev)
{
    for (int i = 0; i < NETDEV_MAX; i++) {
        if (registered[i] != dev)
            continue;
        lx_real_netdev_stop(dev);
        lx_real_netdev_drop_requeued(dev);
        if (dev->netdev_ops && dev->netdev_ops->ndo_uninit)
            dev->netdev_ops->ndo_uninit(dev);
        registered[i] = NULL;
        dev->reg_state = NETREG_UNREGISTERED;
        if (dev->priv_destructor)
            dev->priv_destructor(dev);
        if (dev->needs_free_netdev)
            free_netdev(dev);
        return;
    }
    lx_kit_abort("unregister_netdev(%s): not registered", dev->name);
}

int lx_real_netdev_open(struct net_device *dev)
{
    const struct net_device_ops *ops = dev->netdev_ops;
    if (dev->reg_state != NETREG_REGISTERED)
        lx_kit_abort("lx_real_netdev_open(%s): device not registered", dev->name);
    if (netif_running(dev))
        return 0;
    if (!netif_device_present(dev))
        return -ENODEV;
    /* __dev_open: the address is validated, the device marked running before ndo_open. */
    int ret = ops->ndo_validate_addr ? ops->ndo_validate_addr(dev) : 0;
    if (!ret) {
        set_bit(__LINK_STATE_START, &dev->state);
        ret = ops->ndo_open ? ops->ndo_open(dev) : 0;
    }
    if (ret) {
        clear_bit(__LINK_STATE_START, &dev->state);
        return ret;
    }
    dev->flags |= IFF_UP;
    if (ops->ndo_set_rx_mode) /* dev_set_rx_mode */
        ops->ndo_set_rx_mode(dev);
    return 0;
}

int lx_real_netdev_stop(struct net_device *dev)
{
    if (!netif_running(dev))
        return 0;
    /* __dev_close_many: not running any more before ndo_stop, the qdisc reset (dev_deactivate). */
    clear_bit(__LINK_STATE_START, &dev->state);
    lx_real_netdev_drop_requeued(dev);
    int ret = dev->netdev_ops->ndo_stop ? dev->netdev_ops->ndo_stop(dev) : 0;
    dev->flags &= ~IFF_UP;
    return ret;
}

/* A driver closing its own device (the ENC28J60 on a fatal error), as an ifdown does. */
void dev_close(struct net_device *dev)
{
    lx_real_netdev_stop(dev);
}

void dev_addr_mod(struct net_device *dev, unsigned int offset, const void *addr, size_t len)
{
    if (offset + len > MAX_ADDR_LEN || !dev->dev_addr)
        lx_kit_abort("dev_addr_mod: %zu bytes at %u of %s's address (%s)", len, offset,
                     dev->name, dev->dev_addr ? "past MAX_ADDR_LEN" : "no dev_addr");
    memcpy((unsigned char *)dev->dev_addr + offset, addr, len);
    memcpy(&dev->dev_addr_shadow[offset], addr, len);
}

void get_random_bytes(void *buf, size_t len)
{
    lx_emul_random_bytes(buf, len);
}
