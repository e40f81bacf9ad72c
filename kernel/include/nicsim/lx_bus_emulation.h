/* SPDX-License-Identifier: MIT */
/* A kernel-API emulation as a table of functions, for a driver build that carries its own
 * emulation: a real-header variant (kernel/cmake/RealVariant.cmake) links the driver files and
 * nicsim_lx_real_<tree> into one object whose only global is its anchor, a
 * struct nicsim_real_variant naming this table. The simulator creates a device through the
 * table; nicsim/lx_bus.h's calls on that device and its net device (lx_bus_spi_set_bridge, which
 * nicsim::lx_bus::spi_attach uses, and the net device calls named below) then reach that
 * emulation (registry.c keeps which emulation owns each device). Plain C types, kernel objects
 * opaque: C++ includes it. */
#ifndef NICSIM_LX_BUS_EMULATION_H
#define NICSIM_LX_BUS_EMULATION_H

#include "nicsim/lx_bus.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lx_bus_emulation {
    /* Runs the linked modules' init functions (their module_init, in initcall order) once;
     * 0 or the first error. Call from an lx_kit task. */
    int (*init_modules)(void);
    /* A module parameter by its full name "<module>.<name>": 0 or the set's error, -ENOENT. */
    int (*param_set)(const char* name, const char* value);
    /* An SPI device as the board's firmware describes it (desc as for lx_bus_spi_create). */
    struct spi_device* (*spi_create)(const struct lx_bus_device_desc* desc);
    void (*spi_set_bridge)(struct spi_device* spi, void* bridge);
    /* Binds the SPI driver registered under `driver_name` and runs its probe; on an error the
     * device's devres is released and it is left unbound. probe's result. */
    int (*spi_probe)(struct spi_device* spi, const char* driver_name);
    /* Unbinds: the driver's remove, then the device's devres released. */
    void (*spi_remove)(struct spi_device* spi);
    /* The registered net device whose parent is the SPI device, NULL if none. */
    struct net_device* (*spi_netdev)(struct spi_device* spi);
    /* nicsim/lx_bus.h's calls of the same names on a net device of this emulation. */
    const char* (*netdev_name)(const struct net_device* dev);
    const uint8_t* (*netdev_addr)(const struct net_device* dev);
    int (*netdev_open)(struct net_device* dev);
    int (*netdev_stop)(struct net_device* dev);
    int (*netdev_xmit)(struct net_device* dev, const void* frame, size_t len);
    int (*netdev_xmit_owned)(struct net_device* dev, const void* frame, size_t len,
                             lx_bus_skb_free_fn on_free, void* ctx, uint64_t cookie);
    void (*netdev_set_rx_sink)(struct net_device* dev, lx_bus_rx_fn fn, void* ctx);
    void (*netdev_set_queue_wake)(struct net_device* dev, lx_bus_queue_wake_fn fn, void* ctx);
    void (*netdev_state)(const struct net_device* dev, struct lx_bus_netdev_state* out);
    /* skbs allocated and not freed. */
    size_t (*skb_live_count)(void);
};

/* Fills the counters of a struct lx_bus_netdev_state from a struct net_device_stats, whose
 * fields both header sets name alike (each emulation's lx_bus_netdev_state). */
#define LX_BUS_NETDEV_COUNTERS(out, st)                                                            \
    do {                                                                                           \
        (out)->rx_packets = (st)->rx_packets;                                                      \
        (out)->tx_packets = (st)->tx_packets;                                                      \
        (out)->rx_bytes = (st)->rx_bytes;                                                          \
        (out)->tx_bytes = (st)->tx_bytes;                                                          \
        (out)->rx_dropped = (st)->rx_dropped;                                                      \
        (out)->tx_dropped = (st)->tx_dropped;                                                      \
    } while (0)

/* The anchor of a real-header variant (generated per driver and tree). */
struct nicsim_real_variant {
    const char* driver;         /* e.g. "ks8851" */
    const char* kernel;         /* the tree's series, e.g. "6.1" */
    const char* kernel_version; /* its exact version */
    const struct lx_bus_emulation* emulation;
};

/* Creates an SPI device through `emu` and records that it owns it. */
struct spi_device* lx_bus_spi_create_on(const struct lx_bus_emulation* emu,
                                        const struct lx_bus_device_desc* desc);
/* The net device registered under an SPI device created through lx_bus_spi_create_on (NULL if
 * none; for a shadow-header device, lx_bus_netdev_find). From here on lx_bus_netdev_name,
 * _addr, _state, lx_emul_netdev_open, _stop, _xmit, _xmit_owned, _set_rx_sink and
 * _set_queue_wake on it reach its emulation. */
struct net_device* lx_bus_spi_netdev(struct spi_device* spi);
/* Unbinds a device created through lx_bus_spi_create_on (the driver's remove, then its devres)
 * and forgets its net device, whose memory the devres may have freed. The shadow-header
 * emulation unbinds nothing: a device of it stops the run. */
void lx_bus_spi_remove(struct spi_device* spi);
/* The emulation that owns `dev` (a device created through lx_bus_*_create_on, or its net
 * device found through lx_bus_spi_netdev), NULL for the shadow headers'. */
const struct lx_bus_emulation* lx_bus_device_emulation(const void* dev);

#ifdef __cplusplus
}
#endif

#endif
