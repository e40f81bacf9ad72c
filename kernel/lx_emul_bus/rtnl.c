// SPDX-License-Identifier: MIT
/* The RTNL lock (net/core/rtnetlink.c: rtnl_lock/rtnl_unlock, one global mutex) and dev_close
 * (net/core/dev.c: brings an interface that is up down through ndo_stop). Drivers take RTNL
 * around their own close/open when they restart the device from a work item (enc28j60's
 * restart_work after a TX timeout) and call dev_close when the reopen fails. nicsim's ifup/ifdown
 * (lx_emul_netdev_open/stop) do not take RTNL: nothing else in the emulation holds it. */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>

#include <nicsim/lx_bus.h>

static DEFINE_MUTEX(rtnl_mutex);

void rtnl_lock(void) {
    mutex_lock(&rtnl_mutex);
}
void rtnl_unlock(void) {
    mutex_unlock(&rtnl_mutex);
}

/* dev_close: only an interface that is up (IFF_UP) is closed; the ifdown path is nicsim's. */
void dev_close(struct net_device* dev) {
    if (dev->flags & IFF_UP)
        lx_emul_netdev_stop(dev);
}
