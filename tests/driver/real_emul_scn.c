// SPDX-License-Identifier: MIT
/* Scenarios for nicsim_lx_real_<tree> (real_emul_scn.h), compiled against that tree's real
 * headers as the drivers are. */
#include <linux/bitrev.h>
#include <linux/bottom_half.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/gpio/consumer.h>
#include <linux/if_arp.h>
#include <linux/ktime.h>
#include <linux/mii.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/of_net.h>
#include <linux/netdevice.h>
#include <linux/phy.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/platform_device.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spi/spi.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <lx_emul/real.h>
#include <lx_emul/shared.h>

#include "real_emul_scn.h"

unsigned rh_test_events;
unsigned long long rh_test_t[RH_TEST_MAX_EVENTS];
long rh_test_v[RH_TEST_MAX_EVENTS];

static void record(long v)
{
    if (rh_test_events < RH_TEST_MAX_EVENTS) {
        rh_test_t[rh_test_events] = (unsigned long long)ktime_get();
        rh_test_v[rh_test_events++] = v;
    }
}

static DEFINE_MUTEX(static_lock); /* never mutex_init'ed: a static initialiser must work */
static struct mutex lock;

void rh_scn_mutex_holder(void *arg)
{
    (void)arg;
    mutex_init(&lock);
    mutex_lock(&static_lock);
    mutex_unlock(&static_lock);
    mutex_lock(&lock);
    record(mutex_is_locked(&lock) && atomic_long_read(&lock.owner) == (long)current);
    usleep_range(1000, 1000);
    record(2);
    mutex_unlock(&lock);
}

void rh_scn_mutex_contender(void *arg)
{
    (void)arg;
    udelay(100);
    record(mutex_trylock(&lock));
    mutex_lock(&lock);
    record(3);
    mutex_unlock(&lock);
    record(mutex_is_locked(&lock) ? 5 : 4);
}

void rh_scn_current(void *arg)
{
    struct task_struct *me = current;
    record(me->pid);
    record(strcmp(me->comm, (const char *)arg) == 0 && current == me);
}

static void bh_hook(void) { record(9); }

void rh_scn_bh(void *arg)
{
    (void)arg;
    lx_emul_register_bh_enable_hook(bh_hook);
    local_bh_disable();
    record(in_softirq() ? 1 : 0);
    local_bh_enable();
    record(in_softirq() ? 1 : 0);
}

void rh_scn_sleep_in_bh(void *arg)
{
    (void)arg;
    local_bh_disable();
    mutex_lock(&lock);
}

static struct work_struct work;

static void work_fn(struct work_struct *w)
{
    udelay(50);
    record(work_pending(w) ? 8 : 7);
}

void rh_scn_work(void *arg)
{
    (void)arg;
    INIT_WORK(&work, work_fn);
    record(queue_work(system_wq, &work));
    record(queue_work(system_wq, &work)); /* already pending */
    record(work_pending(&work));
    record(flush_work(&work));
    record(work_pending(&work));
    record(flush_work(&work)); /* idle */
    record(queue_work(system_wq, &work));
    record(cancel_work_sync(&work));
    record(work_pending(&work));
}

static struct net_device log_dev = {.name = "eth7"};

void rh_scn_log_gpio(void *arg)
{
    static const u8 mac[6] = {0, 1, 2, 3, 4, 5};
    (void)arg;
    netdev_info(&log_dev, "up %d %pM", 3, mac);
    netdev_err(NULL, "gone");
    struct gpio_desc *reset = devm_gpiod_get_optional(NULL, "reset", GPIOD_OUT_HIGH);
    record(reset == NULL);
    record(gpiod_set_consumer_name(reset, "rst"));
}

static unsigned char addr_buf[MAX_ADDR_LEN];
static struct net_device addr_dev = {.name = "eth8", .dev_addr = addr_buf, .addr_len = ETH_ALEN};

void rh_scn_random_addr(void *arg)
{
    (void)arg;
    eth_hw_addr_random(&addr_dev);
    for (int i = 0; i < ETH_ALEN; i++)
        record(addr_dev.dev_addr[i] | (addr_dev.dev_addr_shadow[i] == addr_dev.dev_addr[i]) << 8);
    record(addr_dev.addr_assign_type == NET_ADDR_RANDOM);
}

static int mdio_read(struct mii_bus *bus, int addr, int reg)
{
    (void)bus;
    record(addr * 16 + reg);
    if (addr != 1)
        return -EIO;
    return reg == MII_PHYSID1 ? 0x0022 : 0x1430;
}

static int mdio_write(struct mii_bus *bus, int addr, int reg, u16 val)
{
    (void)bus, (void)addr, (void)reg, (void)val;
    return 0;
}

void rh_scn_mdio(void *arg)
{
    (void)arg;
    struct mii_bus *bus = mdiobus_alloc_size(16);
    record(bus->priv != NULL && bus->priv >= (void *)(bus + 1) && bus->state == MDIOBUS_ALLOCATED);
    bus->read = mdio_read;
    bus->write = mdio_write;
    bus->phy_mask = ~0x3u; /* addresses 0 and 1 */
    record(mdiobus_register(bus));
    record(bus->state == MDIOBUS_REGISTERED);
    mdiobus_unregister(bus);
    mdiobus_free(bus);
    record(9);
}


void rh_scn_skb(void *arg)
{
    (void)arg;
    struct sk_buff_head q;
    skb_queue_head_init(&q);
    struct sk_buff *a = netdev_alloc_skb(&log_dev, 100);
    record(skb_headroom(a) == NET_SKB_PAD && a->len == 0 && a->dev == &log_dev &&
           skb_tailroom(a) >= 100 && refcount_read(&a->users) == 1 &&
           a->mac_header == (u16)~0U && skb_shinfo(a)->nr_frags == 0 &&
           atomic_read(&skb_shinfo(a)->dataref) == 1);
    u8 *p = skb_put(a, 60);
    record(p == a->data && a->len == 60 && skb_tail_pointer(a) == a->data + 60);
    memset(p, 0xab, 60);
    struct sk_buff *b = alloc_skb(32, GFP_KERNEL);
    skb_put_u8(b, 7);
    skb_queue_tail(&q, a);
    skb_queue_tail(&q, b);
    record(skb_queue_len(&q));
    record((long)lx_real_skb_live_count());
    record(skb_dequeue(&q) == a);
    record(skb_dequeue(&q) == b && b->len == 1 && b->data[0] == 7);
    record(skb_dequeue(&q) == NULL);
    skb_get(a); /* a second user: the first free only drops it */
    kfree_skb(a);
    record((long)lx_real_skb_live_count());
    consume_skb(a);
    kfree_skb(b);
    record((long)lx_real_skb_live_count());
    skb_queue_tail(&q, alloc_skb(16, GFP_KERNEL));
    skb_queue_purge(&q);
    record((long)lx_real_skb_live_count() + 10 * skb_queue_len(&q));
}

void rh_scn_skb_bad(void *arg)
{
    struct sk_buff *skb = alloc_skb(64, GFP_KERNEL);
    switch ((long)arg) {
    case 0: /* past the end */
        skb_put(skb, 65);
        break;
    case 1:
        kfree_skb(skb);
        kfree_skb(skb);
        break;
    case 2: /* before the head */
        skb->head[-1] = 0;
        kfree_skb(skb);
        break;
    case 3: /* past the end, into the shared info (nr_frags) */
        memset(skb_end_pointer(skb), 0xff, 4);
        kfree_skb(skb);
        break;
    }
}

static struct device parent; /* the devm owner */
static struct net_device *wake_seen;

static int ndo_init(struct net_device *dev)
{
    record(strchr(dev->name, '%') ? 12 : 11); /* named at registration, before ndo_init */
    return 0;
}

static int ndo_open(struct net_device *dev)
{
    record(netif_running(dev) ? 21 : 20);
    netif_start_queue(dev);
    return 0;
}

static int ndo_stop(struct net_device *dev)
{
    record(netif_running(dev) ? 31 : 30);
    netif_stop_queue(dev);
    return 0;
}

static netdev_tx_t ndo_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
    (void)dev;
    kfree_skb(skb);
    return NETDEV_TX_OK;
}

static const struct net_device_ops rh_ops = {
    .ndo_init = ndo_init,
    .ndo_open = ndo_open,
    .ndo_stop = ndo_stop,
    .ndo_start_xmit = ndo_start_xmit,
    .ndo_validate_addr = eth_validate_addr,
};

static void on_wake(void *ctx, struct net_device *dev)
{
    wake_seen = dev;
    record((long)ctx);
}

static void on_rx(void *ctx, struct net_device *dev, const uint8_t *frame, size_t len)
{
    (void)ctx;
    record((long)len * 1000 + frame[0] + (ether_addr_equal(frame, dev->dev_addr) ? 0x100 : 0));
}

static void rx_frame(struct net_device *dev, const u8 *dest, unsigned int len)
{
    struct sk_buff *skb = netdev_alloc_skb(dev, len);
    struct ethhdr *eth = skb_put_zero(skb, len);
    memcpy(eth->h_dest, dest, ETH_ALEN);
    eth->h_proto = htons(ETH_P_IP);
    skb->protocol = eth_type_trans(skb, dev);
    record(skb->protocol == htons(ETH_P_IP) && skb->len == len - ETH_HLEN ? skb->pkt_type : -1);
    netif_rx(skb);
}

void rh_scn_netdev(void *arg)
{
    (void)arg;
    static const u8 mac[ETH_ALEN] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
    struct net_device *dev = devm_alloc_etherdev(&parent, 24);
    u8 *priv = netdev_priv(dev);
    record((unsigned long)priv % NETDEV_ALIGN == 0 && priv >= (u8 *)dev + offsetof(struct net_device, dev) &&
           dev->type == ARPHRD_ETHER && dev->mtu == ETH_DATA_LEN && dev->addr_len == ETH_ALEN &&
           is_broadcast_ether_addr(dev->broadcast) && netdev_get_tx_queue(dev, 0)->dev == dev &&
           dev->reg_state == NETREG_UNINITIALIZED);
    memset(priv, 0x5a, 24); /* the private area is the driver's */
    dev->netdev_ops = &rh_ops;
    eth_hw_addr_set(dev, mac);
    lx_real_netdev_set_queue_wake(dev, on_wake, (void *)100);
    lx_real_netdev_set_rx_sink(dev, on_rx, NULL);
    struct net_device *other = alloc_etherdev(0);
    record(register_netdev(other));
    record(register_netdev(dev)); /* ndo_init first: 11 */
    record(strcmp(other->name, "eth0") == 0 && strcmp(dev->name, "eth1") == 0);
    record(netif_device_present(dev) && netif_carrier_ok(dev) && !netif_running(dev));
    record(lx_real_netdev_open(dev)); /* ndo_open sees it running: 21 */
    record(netif_running(dev) && !netif_queue_stopped(dev) && (dev->flags & IFF_UP));
    netif_stop_queue(dev);
    record(netif_queue_stopped(dev));
    netif_wake_queue(dev); /* restarts it: the hook records 100 */
    record(netif_queue_stopped(dev) + 10 * (wake_seen == dev));
    netif_wake_queue(dev); /* not stopped: no hook */
    netif_carrier_off(dev);
    netif_carrier_off(dev);
    record(netif_carrier_ok(dev) + 10 * atomic_read(&dev->carrier_down_count));
    netif_carrier_on(dev);
    record(netif_carrier_ok(dev) + 10 * atomic_read(&dev->carrier_up_count));
    netif_device_detach(dev);
    record(netif_device_present(dev) + 10 * netif_queue_stopped(dev));
    netif_device_attach(dev); /* wakes the queue: 100 */
    record(netif_device_present(dev) + 10 * netif_queue_stopped(dev));
    rx_frame(dev, mac, 60);          /* PACKET_HOST, then the hook: 60 bytes, 0x02, ours */
    rx_frame(dev, dev->broadcast, 64); /* PACKET_BROADCAST, 64 bytes, 0xff */
    record((long)lx_real_netdev_rx_calls(dev) + 10 * (long)lx_real_skb_live_count());
    dev_close(dev); /* ndo_stop sees it stopped: 30 */
    record(netif_running(dev) + 10 * !!(dev->flags & IFF_UP));
    unregister_netdev(dev); /* closed already: no ndo_stop */
    record(dev->reg_state == NETREG_UNREGISTERED && !netif_running(dev));
    unregister_netdev(other);
    free_netdev(other);
    lx_emul_devres_release_all(&parent); /* frees dev */
}

static int rh_level = 3;
module_param(rh_level, int, 0644);
static bool rh_flag;
module_param(rh_flag, bool, 0);

void rh_scn_param_bitrev(void *arg)
{
    (void)arg;
    static char buf[PAGE_SIZE];
    record(lx_real_param_set("rh_test.rh_level", "-12"));
    record(rh_level);
    record(lx_real_param_get("rh_test.rh_level", buf) * 10 + (strcmp(buf, "-12\n") == 0));
    record(lx_real_param_set("rh_test.rh_level", "12x"));
    record(rh_level);
    record(lx_real_param_set("rh_test.nope", "1"));
    record(lx_real_param_set("rh_test.rh_flag", ""));
    record(lx_real_param_get("rh_test.rh_flag", buf) * 10 + (strcmp(buf, "Y\n") == 0));
    record(lx_real_param_set("rh_test.rh_flag", "n") * 10 + rh_flag);
    volatile u8 x = 0x01; /* not a constant: bitrev8 reads byte_rev_table */
    volatile u16 y = 0x0003;
    record(bitrev8(x));
    record(bitrev16(y));
    gpiod_set_value_cansleep(NULL, 1); /* the optional GPIO that is not there */
    record(1);
}

static int rh_spi_probe(struct spi_device *spi)
{
    (void)spi;
    return 0;
}

static int rh_plat_probe(struct platform_device *pdev)
{
    (void)pdev;
    return 0;
}

static struct spi_driver rh_spi = {.driver = {.name = "rh_drv"}, .probe = rh_spi_probe};
static struct platform_driver rh_plat = {.driver = {.name = "rh_drv"}, .probe = rh_plat_probe};
static struct spi_driver rh_spi_again = {.driver = {.name = "rh_drv"}, .probe = rh_spi_probe};

void rh_scn_drivers(void *arg)
{
    (void)arg;
    record(spi_register_driver(&rh_spi));
    record(platform_driver_register(&rh_plat));
    record(lx_real_driver_find("spi", "rh_drv") == &rh_spi.driver &&
           rh_spi.driver.bus == &spi_bus_type && rh_spi.driver.owner == THIS_MODULE);
    record(lx_real_driver_find("platform", "rh_drv") == &rh_plat.driver &&
           rh_plat.driver.bus == &platform_bus_type);
    record(spi_register_driver(&rh_spi_again)); /* the name is taken on that bus */
    spi_unregister_driver(&rh_spi);
    record(lx_real_driver_find("spi", "rh_drv") == NULL &&
           lx_real_driver_find("platform", "rh_drv") == &rh_plat.driver);
    platform_driver_unregister(&rh_plat);
    record(lx_real_driver_find("platform", "rh_drv") == NULL);
}

static u16 phy_regs[32];

static int mii_read(struct net_device *dev, int phy_id, int reg)
{
    (void)dev;
    return phy_id == 1 ? phy_regs[reg & 0x1f] : 0xffff;
}

static void mii_write(struct net_device *dev, int phy_id, int reg, int val)
{
    (void)dev;
    record(phy_id * 0x100000 + reg * 0x10000 + val);
}

void rh_scn_mii(void *arg)
{
    (void)arg;
    struct net_device *dev = alloc_etherdev(0);
    struct mii_if_info mii = {.dev = dev, .mdio_read = mii_read, .mdio_write = mii_write,
                              .phy_id = 1, .phy_id_mask = 0x1f, .reg_num_mask = 0x1f};
    phy_regs[MII_BMCR] = BMCR_ANENABLE;
    phy_regs[MII_BMSR] = BMSR_ANEGCOMPLETE; /* link down */
    phy_regs[MII_ADVERTISE] = ADVERTISE_CSMA | ADVERTISE_100FULL | ADVERTISE_10HALF;
    phy_regs[MII_LPA] = LPA_100FULL | LPA_10HALF;
    record(mii_link_ok(&mii));
    mii_check_link(&mii); /* carrier was on: off */
    record(netif_carrier_ok(dev));
    phy_regs[MII_BMSR] |= BMSR_LSTATUS;
    record(mii_link_ok(&mii));
    mii_check_link(&mii); /* on again */
    record(netif_carrier_ok(dev));
    struct ethtool_link_ksettings cmd = {};
    mii_ethtool_get_link_ksettings(&mii, &cmd);
    record(cmd.base.speed * 10 + cmd.base.duplex);
    record(cmd.base.autoneg == AUTONEG_ENABLE &&
           ethtool_link_ksettings_test_link_mode(&cmd, advertising, 100baseT_Full) &&
           ethtool_link_ksettings_test_link_mode(&cmd, lp_advertising, 10baseT_Half) &&
           !ethtool_link_ksettings_test_link_mode(&cmd, advertising, 100baseT_Half));
    struct ifreq ifr = {};
    struct mii_ioctl_data *data = if_mii(&ifr);
    data->phy_id = 1;
    data->reg_num = MII_BMSR;
    record(generic_mii_ioctl(&mii, data, SIOCGMIIREG, NULL));
    record(data->val_out);
    record(mii_nway_restart(&mii)); /* writes BMCR with the restart bit */
    free_netdev(dev);
}

static bool all_bytes(const u8 *p, size_t n, u8 v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return false;
    return true;
}

void rh_scn_slab(void *arg)
{
    (void)arg;
    static struct device owner;
    volatile size_t n = 300; /* not a constant: the out-of-line kmalloc */
    u8 *a = kmalloc(100, GFP_KERNEL);
    u8 *z = kzalloc(100, GFP_KERNEL);
    u8 *v = kmalloc(n, GFP_ATOMIC);
    u8 *big = kmalloc(8 * PAGE_SIZE, GFP_KERNEL | __GFP_ZERO); /* above every cache */
    char *d = kmemdup("abc", 4, GFP_KERNEL);
    u8 *m = devm_kzalloc(&owner, 64, GFP_KERNEL);
    record(all_bytes(a, 100, 0x5a)); /* not zeroed: POISON_INUSE */
    record(all_bytes(z, 100, 0));
    record(all_bytes(v, n, 0x5a));
    record(all_bytes(big, 8 * PAGE_SIZE, 0));
    record(strcmp(d, "abc") == 0);
    record(all_bytes(m, 64, 0));
    record(kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR);
    kfree(a);
    kfree(z);
    kfree((void *)v);
    kfree(big);
    kfree(d);
    lx_emul_devres_release_all(&owner); /* frees m */
}

static struct spi_device rh_spi_dev = {
    .max_speed_hz = 20000000,
    .mode = SPI_MODE_3 | SPI_CS_HIGH, /* only CPOL/CPHA reach the host */
    .dev = {.init_name = "spi0.1"},
};

void rh_scn_spi_sync(void *bridge)
{
    static const u8 cmd[2] = {0x12, 0x34};
    u8 in[4] = {0};
    struct spi_transfer xfers[2] = {
        {.tx_buf = cmd, .len = 2, .delay = {.value = 5, .unit = SPI_DELAY_UNIT_USECS}},
        {.rx_buf = in, .len = 4, .bits_per_word = 16, .speed_hz = 1000000, .cs_change = 1,
         .delay = {.value = 8, .unit = SPI_DELAY_UNIT_SCK}},
    };
    struct spi_message msg;
    spi_set_chipselect(&rh_spi_dev, 0, 1);
    lx_real_spi_set_bridge(&rh_spi_dev, bridge);
    spi_message_init_with_transfers(&msg, xfers, 2);
    record(spi_sync(&rh_spi_dev, &msg));
    record(msg.status * 100 + (long)msg.actual_length + 10 * (msg.spi == &rh_spi_dev));
    record((long)((u32)in[0] << 24 | in[1] << 16 | in[2] << 8 | in[3]));
    spi_message_init(&msg);
    record(spi_sync(&rh_spi_dev, &msg)); /* no transfers */
    spi_message_init_with_transfers(&msg, xfers, 1); /* the host fails a 1-transfer frame */
    record(spi_sync(&rh_spi_dev, &msg));
    record(msg.status * 100 + (long)msg.actual_length);
    static const u8 op = 0x5e;
    u8 two[2];
    record(spi_write_then_read(&rh_spi_dev, &op, 1, two, 2));
    record(two[0] << 8 | two[1]);
}

static struct resource rh_res[] = {
    DEFINE_RES_MEM(0x10000000, 0x10),
    DEFINE_RES_IRQ(42),
    DEFINE_RES_MEM(0x20000000, 0x100),
};
static struct platform_device rh_pdev = {
    .name = "rh_par",
    .dev = {.init_name = "rh_par.0"},
    .resource = rh_res,
    .num_resources = ARRAY_SIZE(rh_res),
};

void rh_scn_platform(void *bridge)
{
    lx_real_platform_set_bridge(&rh_pdev, bridge);
    record(platform_get_irq(&rh_pdev, 0));
    record(platform_get_irq(&rh_pdev, 1)); /* one IRQ only */
    void __iomem *regs = devm_platform_ioremap_resource(&rh_pdev, 1); /* the second MEM */
    iowrite16(0xbeef, regs + 4);
    record(ioread16(regs + 6));
    u16 words[3];
    ioread16_rep(regs + 2, words, 3);
    iowrite16_rep(regs + 8, words, 2);
    record(PTR_ERR(devm_platform_ioremap_resource(&rh_pdev, 2))); /* no third MEM */
}

void rh_scn_printk(void *arg)
{
    (void)arg;
    static const u8 bytes[5] = {0x01, 0x02, 0x03, 0x04, 0xff};
    pr_info("hello %d\n", 3);
    pr_warn("mac %pM\n", addr_buf);
    dev_err(&rh_pdev.dev, "bad %s\n", "state");
    dev_info(NULL, "nobody\n");
    print_hex_dump(KERN_DEBUG, "rx: ", DUMP_PREFIX_OFFSET, 16, 1, bytes, sizeof(bytes), true);
    record(platform_get_irq(&rh_pdev, 1)); /* logs that IRQ 1 is not there */
}

void rh_scn_of_mac(void *arg)
{
    (void)arg;
    static u8 multicast[ETH_ALEN] = {0x01, 0, 0x5e, 0, 0, 1};
    static u8 local[ETH_ALEN] = {0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0x01};
    static u8 other[ETH_ALEN] = {0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0x02};
    /* "mac-address" is first in order but no unicast address; "address" comes after
     * "local-mac-address" in the kernel's order though listed first here. */
    static struct property p_local = {.name = "local-mac-address", .length = ETH_ALEN, .value = local};
    static struct property p_mac = {.name = "mac-address", .length = ETH_ALEN, .value = multicast, .next = &p_local};
    static struct property p_addr = {.name = "address", .length = ETH_ALEN, .value = other, .next = &p_mac};
    static struct device_node np = {.name = "ethernet", .properties = &p_addr};
    static struct device_node bare = {.name = "ethernet"};
    struct net_device *dev = alloc_etherdev(0);
    record(of_get_ethdev_address(&np, dev));
    record(dev->dev_addr[5] + 10 * ether_addr_equal(dev->dev_addr, dev->dev_addr_shadow));
    record(of_get_ethdev_address(&bare, dev));
    record(of_get_ethdev_address(NULL, dev));
    static struct platform_device pdev = {.name = "rh_mac", .dev = {.init_name = "rh_mac.0", .of_node = &np}};
    static const u8 zero[ETH_ALEN];
    eth_hw_addr_set(dev, zero); /* so the address read next is seen */
    record(device_get_ethdev_address(&pdev.dev, dev));
    record(dev->dev_addr[5]);
    pdev.dev.of_node = NULL;
    record(device_get_ethdev_address(&pdev.dev, dev));
    free_netdev(dev);
}
