// SPDX-License-Identifier: MIT
//
// The seam between the host stack and whatever carries its frames: the real driver's
// ndo_start_xmit (bound by the composition root) or a link model. It mirrors the kernel's
// contract (include/linux/netdevice.h, net/sched/sch_generic.c):
//
//   xmit(skb)         ndo_start_xmit. Returns netdev_tx::ok after taking ownership of the skb
//                     (moving it out of the skb_ptr) - the skb's destructor then runs when the
//                     taker destroys it (kfree_skb/consume_skb/dev_kfree_skb: a driver after
//                     copying it into chip memory; a link model when the last bit has left).
//                     Returns netdev_tx::busy WITHOUT touching the skb (NETDEV_TX_BUSY): the
//                     qdisc requeues it (dev_requeue_skb) and retries when the queue is woken.
//                     A driver that drops a frame returns ok and destroys it (as Linux drivers
//                     do with dev_kfree_skb + NETDEV_TX_OK). Called from the stack's SC_THREAD;
//                     it may wait() (e.g. a driver holding a lock), the qdisc run waits with it.
//   queue_stopped()   netif_xmit_stopped: checked before each dequeue (qdisc_restart does not
//                     dequeue while the driver has stopped the queue). Empty = never stopped.
//
// The driver side restarts the queue by calling host_stack::netif_wake_queue() (any process
// kind; it only notifies the stack thread, which then runs __qdisc_run).
#pragma once

#include <functional>

#include "host/net/skb.h"

namespace nicsim::net {

enum class netdev_tx { ok, busy };

struct netdev_port {
    std::function<netdev_tx(skb_ptr&)> xmit;
    std::function<bool()> queue_stopped;
    // The device takes GSO skbs whole (NETIF_F_TSO/GSO, e.g. veth). false (every SPI/SDIO
    // driver here): the stack segments them before xmit (validate_xmit_skb), so xmit only ever
    // sees single-frame skbs, each holding its share of the TSQ budget.
    bool gso = false;
};

} // namespace nicsim::net
