/* SPDX-License-Identifier: MIT */
/* struct net_device and the netdev API the wilc1000/ks8851 drivers use: queue and carrier state,
 * multicast list, stats, message-level helpers, registration. Implemented in
 * kernel/lx_emul_bus/netdev.c; the testbench drives a device through lx_emul/netdev_api.h. */
#ifndef LX_EMUL_NETDEVICE_H
#define LX_EMUL_NETDEVICE_H

/* The kernel's netdevice.h pulls in most of the core headers; drivers (wilc1000's wlan_if.h)
 * rely on that, so this one does too. */
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/skbuff.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/completion.h>
#include <linux/srcu.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <linux/jiffies.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <asm/unaligned.h>
#include <lx_emul/if_ether.h>

#define IFNAMSIZ 16
#define MAX_ADDR_LEN 32

/* include/uapi/linux/if.h values. */
#define IFF_UP 0x1
#define IFF_BROADCAST 0x2
#define IFF_DEBUG 0x4
#define IFF_LOOPBACK 0x8
#define IFF_POINTOPOINT 0x10
#define IFF_NOTRAILERS 0x20
#define IFF_RUNNING 0x40
#define IFF_NOARP 0x80
#define IFF_PROMISC 0x100
#define IFF_ALLMULTI 0x200
#define IFF_MASTER 0x400
#define IFF_SLAVE 0x800
#define IFF_MULTICAST 0x1000

#define IF_PORT_UNKNOWN 0
#define IF_PORT_10BASE2 1
#define IF_PORT_10BASET 2
#define IF_PORT_AUI 3
#define IF_PORT_100BASET 4
#define IF_PORT_100BASETX 5
#define IF_PORT_100BASEFX 6

#define NET_ADDR_PERM 0
#define NET_ADDR_RANDOM 1
#define NET_ADDR_STOLEN 2
#define NET_ADDR_SET 3

typedef enum netdev_tx {
    NETDEV_TX_OK = 0x00,
    NETDEV_TX_BUSY = 0x10,
} netdev_tx_t;

struct sockaddr {
    unsigned short sa_family;
    char sa_data[14];
};

struct ifreq; /* only passed through to generic_mii_ioctl */
struct ethtool_ops;
struct wireless_dev;
struct net_device;

struct net_device_stats {
    unsigned long rx_packets;
    unsigned long tx_packets;
    unsigned long rx_bytes;
    unsigned long tx_bytes;
    unsigned long rx_errors;
    unsigned long tx_errors;
    unsigned long rx_dropped;
    unsigned long tx_dropped;
    unsigned long multicast;
    unsigned long collisions;
    unsigned long rx_length_errors;
    unsigned long rx_over_errors;
    unsigned long rx_crc_errors;
    unsigned long rx_frame_errors;
    unsigned long rx_fifo_errors;
    unsigned long rx_missed_errors;
    unsigned long tx_aborted_errors;
    unsigned long tx_carrier_errors;
    unsigned long tx_fifo_errors;
    unsigned long tx_heartbeat_errors;
    unsigned long tx_window_errors;
};

struct netdev_hw_addr {
    struct list_head list;
    unsigned char addr[MAX_ADDR_LEN];
    unsigned char type;
};

struct netdev_hw_addr_list {
    struct list_head list;
    int count;
};

struct net_device_ops {
    int (*ndo_init)(struct net_device* dev);
    void (*ndo_uninit)(struct net_device* dev);
    int (*ndo_open)(struct net_device* dev);
    int (*ndo_stop)(struct net_device* dev);
    netdev_tx_t (*ndo_start_xmit)(struct sk_buff* skb, struct net_device* dev);
    void (*ndo_set_rx_mode)(struct net_device* dev);
    int (*ndo_set_mac_address)(struct net_device* dev, void* addr);
    int (*ndo_validate_addr)(struct net_device* dev);
    int (*ndo_eth_ioctl)(struct net_device* dev, struct ifreq* ifr, int cmd);
    struct net_device_stats* (*ndo_get_stats)(struct net_device* dev);
    void (*ndo_tx_timeout)(struct net_device* dev, unsigned int txqueue);
    int (*ndo_change_mtu)(struct net_device* dev, int new_mtu);
};

/* Receive sink: where netif_rx() delivers the frame (set by the testbench, nicsim/lx_bus.h). */
typedef void (*lx_emul_netdev_rx_sink_t)(void* ctx, struct net_device* dev, const u8* frame,
                                         size_t len);

struct net_device {
    char name[IFNAMSIZ];
    unsigned int flags;
    unsigned int mtu;
    unsigned short type;
    unsigned short hard_header_len;
    unsigned char addr_len;
    unsigned char addr_assign_type;
    unsigned char if_port;
    int irq;
    const unsigned char* dev_addr; /* 6.1: const, written only through eth_hw_addr_set() */
    unsigned char broadcast[MAX_ADDR_LEN];
    struct netdev_hw_addr_list mc;
    struct net_device_stats stats;
    const struct net_device_ops* netdev_ops;
    const struct ethtool_ops* ethtool_ops;
    struct wireless_dev* ieee80211_ptr;
    void* ml_priv;
    bool needs_free_netdev;
    int watchdog_timeo; /* kept for the driver; no TX watchdog (dev_watchdog) runs in nicsim */
    struct device dev;

    /* nicsim state (not kernel fields) */
    unsigned char nicsim_addr[MAX_ADDR_LEN]; /* storage behind dev_addr */
    void* nicsim_priv;                       /* netdev_priv() area */
    bool nicsim_registered;
    bool nicsim_running;                     /* __LINK_STATE_START: between open and stop */
    bool nicsim_queue_stopped;               /* __QUEUE_STATE_DRV_XOFF */
    bool nicsim_carrier;                     /* !__LINK_STATE_NOCARRIER */
    bool nicsim_present;                     /* __LINK_STATE_PRESENT */
    bool nicsim_devm;                        /* allocated by devm_alloc_etherdev */
    unsigned long nicsim_rx_count;           /* netif_rx calls */
    lx_emul_netdev_rx_sink_t nicsim_rx_sink;
    void* nicsim_rx_ctx;
    /* netif_wake_queue -> __netif_schedule: the stack's qdisc runs again */
    void (*nicsim_wake_fn)(void* ctx, struct net_device* dev);
    void* nicsim_wake_ctx;
    /* The skb the driver refused with NETDEV_TX_BUSY, parked until the stack offers the same
     * frame again (the qdisc's gso_skb after dev_requeue_skb). */
    struct sk_buff* nicsim_requeued;
};

static inline void* netdev_priv(const struct net_device* dev) { return dev->nicsim_priv; }

#define SET_NETDEV_DEV(net, pdev) ((net)->dev.parent = (pdev))

struct net_device* alloc_etherdev_mqs(int sizeof_priv, unsigned int txqs, unsigned int rxqs);
#define alloc_etherdev(sizeof_priv) alloc_etherdev_mqs(sizeof_priv, 1, 1)
struct net_device* devm_alloc_etherdev_mqs(struct device* dev, int sizeof_priv, unsigned int txqs,
                                           unsigned int rxqs);
#define devm_alloc_etherdev(dev, sizeof_priv) devm_alloc_etherdev_mqs(dev, sizeof_priv, 1, 1)
void free_netdev(struct net_device* dev);
int register_netdev(struct net_device* dev);
void unregister_netdev(struct net_device* dev);

void netif_start_queue(struct net_device* dev);
void netif_stop_queue(struct net_device* dev);
void netif_wake_queue(struct net_device* dev);
static inline bool netif_queue_stopped(const struct net_device* dev)
{
    return dev->nicsim_queue_stopped;
}
static inline bool netif_running(const struct net_device* dev) { return dev->nicsim_running; }
void netif_carrier_on(struct net_device* dev);
void netif_carrier_off(struct net_device* dev);
static inline bool netif_carrier_ok(const struct net_device* dev) { return dev->nicsim_carrier; }
void netif_device_attach(struct net_device* dev);
void netif_device_detach(struct net_device* dev);
static inline bool netif_device_present(const struct net_device* dev)
{
    return dev->nicsim_present;
}
int netif_rx(struct sk_buff* skb);

/* net/core/rtnetlink.c's RTNL mutex and net/core/dev.c's dev_close (the kernel's netdevice.h
 * reaches rtnl_lock through linux/rtnetlink.h). Implemented in kernel/lx_emul_bus/rtnl.c. */
void rtnl_lock(void);
void rtnl_unlock(void);
void dev_close(struct net_device* dev);

/* netdev_alloc_skb & co. are lx_emul/skbuff.h's. */

#define netdev_mc_count(dev) ((dev)->mc.count)
#define netdev_mc_empty(dev) (netdev_mc_count(dev) == 0)
#define netdev_for_each_mc_addr(ha, dev) list_for_each_entry(ha, &(dev)->mc.list, list)

/* Message levels (include/linux/netdevice.h semantics). */
enum {
    NETIF_MSG_DRV_BIT,
    NETIF_MSG_PROBE_BIT,
    NETIF_MSG_LINK_BIT,
    NETIF_MSG_TIMER_BIT,
    NETIF_MSG_IFDOWN_BIT,
    NETIF_MSG_IFUP_BIT,
    NETIF_MSG_RX_ERR_BIT,
    NETIF_MSG_TX_ERR_BIT,
    NETIF_MSG_TX_QUEUED_BIT,
    NETIF_MSG_INTR_BIT,
    NETIF_MSG_TX_DONE_BIT,
    NETIF_MSG_RX_STATUS_BIT,
    NETIF_MSG_PKTDATA_BIT,
    NETIF_MSG_HW_BIT,
    NETIF_MSG_WOL_BIT,
};
#define NETIF_MSG_DRV (1u << NETIF_MSG_DRV_BIT)
#define NETIF_MSG_PROBE (1u << NETIF_MSG_PROBE_BIT)
#define NETIF_MSG_LINK (1u << NETIF_MSG_LINK_BIT)
#define NETIF_MSG_TIMER (1u << NETIF_MSG_TIMER_BIT)
#define NETIF_MSG_IFDOWN (1u << NETIF_MSG_IFDOWN_BIT)
#define NETIF_MSG_IFUP (1u << NETIF_MSG_IFUP_BIT)
#define NETIF_MSG_RX_ERR (1u << NETIF_MSG_RX_ERR_BIT)
#define NETIF_MSG_TX_ERR (1u << NETIF_MSG_TX_ERR_BIT)
#define NETIF_MSG_TX_QUEUED (1u << NETIF_MSG_TX_QUEUED_BIT)
#define NETIF_MSG_INTR (1u << NETIF_MSG_INTR_BIT)
#define NETIF_MSG_TX_DONE (1u << NETIF_MSG_TX_DONE_BIT)
#define NETIF_MSG_RX_STATUS (1u << NETIF_MSG_RX_STATUS_BIT)
#define NETIF_MSG_PKTDATA (1u << NETIF_MSG_PKTDATA_BIT)
#define NETIF_MSG_HW (1u << NETIF_MSG_HW_BIT)
#define NETIF_MSG_WOL (1u << NETIF_MSG_WOL_BIT)

#define netif_msg_drv(p) ((p)->msg_enable & NETIF_MSG_DRV)
#define netif_msg_probe(p) ((p)->msg_enable & NETIF_MSG_PROBE)
#define netif_msg_link(p) ((p)->msg_enable & NETIF_MSG_LINK)
#define netif_msg_timer(p) ((p)->msg_enable & NETIF_MSG_TIMER)
#define netif_msg_ifdown(p) ((p)->msg_enable & NETIF_MSG_IFDOWN)
#define netif_msg_ifup(p) ((p)->msg_enable & NETIF_MSG_IFUP)
#define netif_msg_rx_err(p) ((p)->msg_enable & NETIF_MSG_RX_ERR)
#define netif_msg_tx_err(p) ((p)->msg_enable & NETIF_MSG_TX_ERR)
#define netif_msg_tx_queued(p) ((p)->msg_enable & NETIF_MSG_TX_QUEUED)
#define netif_msg_intr(p) ((p)->msg_enable & NETIF_MSG_INTR)
#define netif_msg_tx_done(p) ((p)->msg_enable & NETIF_MSG_TX_DONE)
#define netif_msg_rx_status(p) ((p)->msg_enable & NETIF_MSG_RX_STATUS)
#define netif_msg_pktdata(p) ((p)->msg_enable & NETIF_MSG_PKTDATA)
#define netif_msg_hw(p) ((p)->msg_enable & NETIF_MSG_HW)
#define netif_msg_wol(p) ((p)->msg_enable & NETIF_MSG_WOL)

static inline u32 netif_msg_init(int debug_value, int default_msg_enable_bits)
{
    if (debug_value < 0 || debug_value >= (int)(sizeof(u32) * 8))
        return default_msg_enable_bits;
    if (debug_value == 0)
        return 0;
    return (1u << debug_value) - 1;
}

/* netdev_* printing is lx_emul/printk.h's (lx_emul_netdev_printk). */
#define netif_level(level, priv, type, dev, fmt, ...)                                              \
    do {                                                                                           \
        if (netif_msg_##type(priv))                                                                \
            netdev_##level(dev, fmt, ##__VA_ARGS__);                                               \
    } while (0)
#define netif_err(priv, type, dev, fmt, ...) netif_level(err, priv, type, dev, fmt, ##__VA_ARGS__)
#define netif_warn(priv, type, dev, fmt, ...) netif_level(warn, priv, type, dev, fmt, ##__VA_ARGS__)
#define netif_info(priv, type, dev, fmt, ...) netif_level(info, priv, type, dev, fmt, ##__VA_ARGS__)
#define netif_dbg(priv, type, dev, fmt, ...) netif_level(dbg, priv, type, dev, fmt, ##__VA_ARGS__)

#endif
