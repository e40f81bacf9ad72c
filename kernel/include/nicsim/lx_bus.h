/* SPDX-License-Identifier: MIT */
/* The testbench's C API into the driver-facing half of the kernel emulation (lx_emul_bus):
 * the driver registry (which spi/sdio/platform drivers the linked variants registered), device
 * creation + probe, and the netdev controls (open/stop/xmit, RX sink, queue/carrier state).
 * Plain C types only; kernel objects are opaque pointers, so C++ can include this without any
 * Linux header. Bus attachment (SPI host, SDIO host, 16-bit parallel bus) is C++:
 * kernel/include/nicsim/bus_attach.h. */
#ifndef NICSIM_LX_BUS_H
#define NICSIM_LX_BUS_H

/* C on the real kernel headers (kernel/lx_emul_real/) has no C library: the kernel's types. */
#ifdef NICSIM_REAL_KERNEL_HEADERS
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct net_device;
struct spi_device;
struct sdio_func;
struct platform_device;
struct sk_buff;

/* ---- driver registry ------------------------------------------------------------------------ */

enum lx_bus_kind { LX_BUS_SPI = 1, LX_BUS_SDIO = 2, LX_BUS_PLATFORM = 3 };

struct lx_bus_driver_info {
    enum lx_bus_kind bus;
    const char* name;    /* driver.name (spi/platform) or sdio_driver.name */
    const char* modname; /* KBUILD_MODNAME of the registering file, e.g. "wilc1000_spi" */
    const char* variant; /* e.g. "pristine", "no-chip-sleep" */
};
/* Number of registered drivers and the i-th one (registration order). */
size_t lx_bus_driver_count(void);
int lx_bus_driver_get(size_t i, struct lx_bus_driver_info* out);

/* ---- device creation and probe -------------------------------------------------------------- */

/* Device-tree-like description of a device (strings are copied). */
struct lx_bus_device_desc {
    const char* name;          /* dev_name(), e.g. "spi0.0" */
    const char* compatible;    /* e.g. "microchip,wilc1000" (informational) */
    uint32_t max_speed_hz;     /* SPI only */
    uint32_t spi_mode;         /* SPI_MODE_0..3 */
    unsigned chip_select;      /* SPI only */
    unsigned controller_flags; /* SPI_CONTROLLER_* (e.g. half duplex) */
    int irq;                   /* Linux IRQ number (lx_kit irq source); 0 = none */
    int has_mac_address;       /* device tree "local-mac-address" present */
    uint8_t mac_address[6];
    uint64_t mem_base[2]; /* platform: resource 0/1 base addresses on the 16-bit bus */
    uint64_t mem_size[2];
};

/* Create a device and run the probe() of the driver registered with (modname, variant).
 * Returns the device (never NULL; aborts the run with a clear message if the driver is not
 * registered) and stores probe()'s return value in *probe_ret. Call from a SystemC thread:
 * probe may sleep. The bus must be attached before the first bus access (see nicsim/bus_attach.h);
 * creating the device first and attaching later is allowed with lx_bus_*_create + *_probe. */
struct spi_device* lx_bus_spi_create(const struct lx_bus_device_desc* desc);
int lx_bus_spi_probe(struct spi_device* spi, const char* modname, const char* variant);
struct sdio_func* lx_bus_sdio_create(const struct lx_bus_device_desc* desc, unsigned func_num);
int lx_bus_sdio_probe(struct sdio_func* func, const char* modname, const char* variant);
struct platform_device* lx_bus_platform_create(const struct lx_bus_device_desc* desc);
int lx_bus_platform_probe(struct platform_device* pdev, const char* modname, const char* variant);

/* ---- registered network devices ------------------------------------------------------------- */

/* register_netdev() records each device with the (modname, variant) of the driver being probed
 * at that moment. Returns the index-th device of that driver/variant, or NULL. */
struct net_device* lx_bus_netdev_find(const char* driver_modname, const char* variant,
                                      unsigned index);
const char* lx_bus_netdev_name(const struct net_device* dev);

/* Handler runs on Linux IRQ `irq` since boot (the threaded handler's runs, or the hard
 * handler's for handlers without a thread): the interrupts the driver handled. 0 for irq <= 0
 * (not wired: the driver polls). */
unsigned long lx_bus_irq_handler_runs(int irq);
const uint8_t* lx_bus_netdev_addr(const struct net_device* dev);

/* ndo_open (with the kernel's ndo_validate_addr before and ndo_set_rx_mode after, as
 * __dev_open + dev_set_rx_mode do). Returns ndo_open's result. Call from a SystemC thread. */
int lx_emul_netdev_open(struct net_device* dev);
int lx_emul_netdev_stop(struct net_device* dev);
/* Builds an skb holding the Ethernet frame (headroom like the stack's, protocol and network
 * header set as dev_queue_xmit would) and calls ndo_start_xmit. Returns NETDEV_TX_OK (0) or
 * NETDEV_TX_BUSY (0x10); on BUSY the skb is freed here (the testbench decides to retry). */
int lx_emul_netdev_xmit(struct net_device* dev, const void* frame, size_t len);

/* The same, for a stack that accounts the skb's memory (TCP Small Queues): on_free(ctx, cookie)
 * runs when the skb is freed, by whoever frees it (the driver after copying it to the chip, or a
 * TX-complete path), as the kernel's skb->destructor (tcp_wfree) does. On NETDEV_TX_BUSY the skb
 * is freed without calling on_free: the caller still owns the frame (dev_requeue_skb).
 * It returns on the caller's local time (bus/common/local_time.h), as the driver left it: the
 * caller (a stack that follows the local-time rule) syncs before anything another process sees.
 * lx_emul_netdev_xmit returns in SystemC time. */
typedef void (*lx_bus_skb_free_fn)(void* ctx, uint64_t cookie);
int lx_emul_netdev_xmit_owned(struct net_device* dev, const void* frame, size_t len,
                              lx_bus_skb_free_fn on_free, void* ctx, uint64_t cookie);
/* netif_wake_queue() after netif_stop_queue(): the stack's qdisc may run again
 * (__netif_schedule). Called from the driver's context. */
typedef void (*lx_bus_queue_wake_fn)(void* ctx, struct net_device* dev);
void lx_emul_netdev_set_queue_wake(struct net_device* dev, lx_bus_queue_wake_fn fn, void* ctx);

/* netif_rx() delivers here: frame bytes from the MAC header (the skb is freed afterwards). */
typedef void (*lx_bus_rx_fn)(void* ctx, struct net_device* dev, const uint8_t* frame, size_t len);
void lx_emul_netdev_set_rx_sink(struct net_device* dev, lx_bus_rx_fn fn, void* ctx);

struct lx_bus_netdev_state {
    int registered, running, queue_stopped, carrier, present;
    unsigned long rx_packets, tx_packets, rx_bytes, tx_bytes, rx_dropped, tx_dropped;
    unsigned long netif_rx_calls;
};
void lx_bus_netdev_state(const struct net_device* dev, struct lx_bus_netdev_state* out);

/* ---- firmware -------------------------------------------------------------------------------- */
void lx_bus_firmware_register(const char* name, const uint8_t* data, size_t size);

/* ---- wilc1000 glue entry points ----------------------------------------------------------- */

/* The BSS to connect to: what cfg80211's scan table would hold from the AP's beacon. */
struct lx_bus_wilc_bss {
    uint8_t bssid[6];
    char ssid[32]; /* not NUL-terminated; ssid_len bytes */
    uint8_t ssid_len;
    uint8_t channel;          /* 2.4 GHz channel number */
    uint16_t beacon_interval; /* TU */
    uint8_t dtim_period;      /* the TIM element's DTIM period */
    uint16_t capability;      /* capability information field */
    uint8_t rates[12];        /* Supported Rates then Extended Supported Rates, 500 kbit/s units
                               * (bit 7 = basic) */
    uint8_t n_rates;
    uint8_t ht, wmm, uapsd; /* HT Capabilities element; WMM element; its U-APSD bit */
};

/* Per variant (the glue is compiled into each variant and registers itself at load time). */
struct lx_bus_wilc_ops {
    /* hif.c's wilc_set_power_mgmt: sends WID_POWER_MANAGEMENT (1 = MIN_FAST_PS, 0 = off) and
     * sets wilc->power_save_mode when the firmware accepted it. Returns 0 or -errno. */
    int (*set_power_mgmt)(struct net_device* dev, int enabled);
    /* cfg80211.c's connect() for `iw dev wlan0 connect <ssid>` to this BSS (open system, no
     * extra IEs): the 5 WIDs of hif.c's wilc_send_connect_wid, then the connect timer. The
     * firmware answers with an 'I' status message later. Returns 0 or -errno. */
    int (*connect)(struct net_device* dev, const struct lx_bus_wilc_bss* bss);
    /* hif.c's hif_state is HOST_IF_CONNECTED (the connect result was a success). */
    int (*connected)(struct net_device* dev);
    int (*power_save_mode)(struct net_device* dev);
    /* The driver's TCP ACK filter (wlan.c) is on: hif.c's 5 s statistics query read a link
     * speed above 54 Mbit/s other than 72. */
    int (*tcp_ack_filter)(struct net_device* dev);
};
void lx_bus_wilc_ops_register(const char* variant, const struct lx_bus_wilc_ops* ops);
/* NULL if that variant is not linked. */
const struct lx_bus_wilc_ops* lx_bus_wilc_ops_find(const char* variant);

#ifdef __cplusplus
}
#endif

#endif
