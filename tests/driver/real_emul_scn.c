// SPDX-License-Identifier: MIT
/* Scenarios for nicsim_lx_real_<tree> (real_emul_scn.h), compiled against that tree's real
 * headers as the drivers are. */
#include <linux/bottom_half.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/gpio/consumer.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/phy.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/workqueue.h>

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

