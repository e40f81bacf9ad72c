/* SPDX-License-Identifier: MIT */
/* What the emulation on a tree's real headers (kernel/lx_emul_real/, the library
 * nicsim_lx_real_<tree>) offers its callers beyond the kernel's own functions: the testbench's
 * hooks on a net device, the parameters and the skb accounting. Kernel objects are opaque
 * pointers, so C on either header set and C++ include it. The simulator reaches them through
 * a real-header variant's table of functions (lx_real_emulation, nicsim/lx_bus_emulation.h)
 * behind nicsim/lx_bus.h's calls (docs/driver-build.md). */
#ifndef LX_EMUL_REAL_H
#define LX_EMUL_REAL_H

#include <lx_kit/lx_kit.h>

#ifdef __cplusplus
extern "C" {
#endif

struct net_device;
struct device_driver;
struct spi_device;
struct platform_device;

/* The SPI host spi_sync sends the device's messages to (the bus bridge of
 * kernel/lx_emul_bus/bridge_c.h, lx_bus_spi_bridge_transfer). */
void lx_real_spi_set_bridge(struct spi_device* spi, void* bridge);

/* The driver registered on `bus` ("spi", "platform") under `name`, NULL if none is. */
struct device_driver* lx_real_driver_find(const char* bus, const char* name);

/* netif_rx hands each frame here (bytes from the MAC header) before freeing its skb. */
typedef void (*lx_real_rx_fn)(void* ctx, struct net_device* dev, const uint8_t* frame,
                              size_t len);
void lx_real_netdev_set_rx_sink(struct net_device* dev, lx_real_rx_fn fn, void* ctx);
/* netif_tx_wake_queue calls this when it restarts a stopped queue (where the kernel reschedules
 * the qdisc, __netif_schedule). */
typedef void (*lx_real_queue_wake_fn)(void* ctx, struct net_device* dev);
void lx_real_netdev_set_queue_wake(struct net_device* dev, lx_real_queue_wake_fn fn, void* ctx);
/* The parallel bus devm_platform_ioremap_resource maps the device's memory resources on (the
 * bus bridge of kernel/lx_emul_bus/bridge_c.h, lx_bus_mmio16_bridge_*). */
void lx_real_platform_set_bridge(struct platform_device* pdev, void* bridge);

/* The testbench's ifup and ifdown: __dev_open (ndo_validate_addr, running, ndo_open, IFF_UP,
 * ndo_set_rx_mode) and __dev_close (not running, then ndo_stop). 0 or the driver's error. */
int lx_real_netdev_open(struct net_device* dev);
int lx_real_netdev_stop(struct net_device* dev);
/* The testbench's transmit, dev_queue_xmit's last step: an skb holding the Ethernet frame with
 * the stack's headroom (LX_EMUL_XMIT_HEADROOM), its MAC header at the data, the network header
 * after it and the protocol from the frame, handed to ndo_start_xmit; its result. A device that
 * is down drops the frame (the noop qdisc). A frame the driver refuses (NETDEV_TX_BUSY) stays
 * queued, and offering the same frame again offers the same skb (dev_requeue_skb); ifdown,
 * unregistering or another frame drops it. Returns in SystemC time. */
int lx_real_netdev_xmit(struct net_device* dev, const void* frame, size_t len);
/* The same for a stack that accounts the skb's memory (TCP Small Queues): on_free(ctx, cookie)
 * runs when the skb is freed, by whoever frees it, as the kernel's skb->destructor (tcp_wfree);
 * not for a refused frame (the caller still owns it) and at once for a device that is down.
 * Returns on the caller's local time. */
typedef void (*lx_real_skb_free_fn)(void* ctx, uint64_t cookie);
int lx_real_netdev_xmit_owned(struct net_device* dev, const void* frame, size_t len,
                              lx_real_skb_free_fn on_free, void* ctx, uint64_t cookie);
/* netif_rx calls on the device so far. */
unsigned long lx_real_netdev_rx_calls(const struct net_device* dev);

/* Sets / formats a module parameter by its full name "<module>.<name>" through its
 * kernel_param_ops (buffer: a page). 0 or the set's error / the characters written; -ENOENT
 * when no linked object has that parameter. */
int lx_real_param_set(const char* name, const char* value);
int lx_real_param_get(const char* name, char* buffer);

/* skbs allocated and not freed. */
size_t lx_real_skb_live_count(void);

#ifdef __cplusplus
}
#endif

#endif
