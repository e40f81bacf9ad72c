// SPDX-License-Identifier: MIT
/* lx_emul_real: the device side of the SPI bus, as the simulator drives it through the
 * emulation's table (nicsim/lx_bus_emulation.h, lx_real_emulation). A device is made as the
 * kernel's SPI core makes one from a device-tree node (of_register_spi_device): its controller as
 * parent, the node with "compatible" and, when the board has one, "local-mac-address", the
 * modalias from the compatible's part after the vendor, speed, mode, chip select and IRQ.
 * Binding is really_probe's: the driver set before probe, and on a failed probe (or after
 * remove) the device's devres released, its driver and driver data cleared. The modules'
 * init functions are the initcalls the variant link gathers (kernel/cmake/real_variant.ld). */
#include <linux/init.h>
#include <linux/netdevice.h>
#include <linux/of.h>
#include <linux/spi/spi.h>
#include <linux/string.h>

#include <lx_emul/real.h>
#include <lx_emul/shared.h>
#include <nicsim/lx_bus_emulation.h>

#include "internal.h"

static void *device_alloc(size_t size)
{
    void *p = lx_emul_alloc(size, 1, "lx_bus_spi_create", "lx_emul_real");
    if (!p)
        lx_kit_abort("lx_bus_spi_create: out of memory");
    return p;
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = device_alloc(n);
    memcpy(d, s, n);
    return d;
}

static void add_property(struct device_node *np, const char *name, const void *value, int length)
{
    struct property *pp = device_alloc(sizeof(*pp));
    pp->name = copy_string(name);
    pp->length = length;
    pp->value = device_alloc(length);
    memcpy(pp->value, value, length);
    pp->next = np->properties;
    np->properties = pp;
}

static struct device_node *make_node(const struct lx_bus_device_desc *desc)
{
    struct device_node *np = device_alloc(sizeof(*np));
    np->name = copy_string(desc->name ? desc->name : "device");
    np->full_name = np->name;
    if (desc->compatible)
        add_property(np, "compatible", desc->compatible, strlen(desc->compatible) + 1);
    if (desc->has_mac_address)
        add_property(np, "local-mac-address", desc->mac_address, 6);
    return np;
}

static struct spi_device *spi_create(const struct lx_bus_device_desc *desc)
{
    struct spi_controller *ctlr = device_alloc(sizeof(*ctlr));
    struct spi_device *spi = device_alloc(sizeof(*spi));
    ctlr->flags = desc->controller_flags;
    ctlr->num_chipselect = 1;
    ctlr->dev.init_name = "spi-controller";
    spi->controller = ctlr;
#if !LX_REAL_KERNEL_AT_LEAST(6, 12)
    spi->master = ctlr; /* 6.1's name for it, which its drivers still read */
#endif
    spi->dev.parent = &ctlr->dev;
    spi->dev.bus = &spi_bus_type;
    spi->dev.init_name = copy_string(desc->name ? desc->name : "spi0.0");
    spi->dev.of_node = make_node(desc);
    spi->dev.fwnode = &spi->dev.of_node->fwnode;
    /* of_modalias_node: the compatible without its "vendor," prefix. */
    const char *compatible = desc->compatible ? desc->compatible : "";
    const char *comma = strchr(compatible, ',');
    strscpy(spi->modalias, comma ? comma + 1 : compatible, sizeof(spi->modalias));
    spi->max_speed_hz = desc->max_speed_hz;
    spi->mode = desc->spi_mode;
    spi->bits_per_word = 8;
    spi->irq = desc->irq;
    spi_set_chipselect(spi, 0, desc->chip_select);
    return spi;
}

static void unbind(struct device *dev)
{
    lx_emul_devres_release_all(dev);
    dev->driver = NULL;
    dev_set_drvdata(dev, NULL);
}

static int spi_probe(struct spi_device *spi, const char *driver_name)
{
    struct device_driver *drv = lx_real_driver_find("spi", driver_name);
    if (!drv)
        lx_kit_abort("no SPI driver \"%s\" registered for %s", driver_name, dev_name(&spi->dev));
    if (spi->dev.driver)
        lx_kit_abort("%s is already bound to %s", dev_name(&spi->dev), spi->dev.driver->name);
    spi->dev.driver = drv;
    int ret = to_spi_driver(drv)->probe(spi);
    if (ret)
        unbind(&spi->dev);
    return ret;
}

static void spi_remove(struct spi_device *spi)
{
    if (!spi->dev.driver)
        lx_kit_abort("removing %s: no driver bound", dev_name(&spi->dev));
    struct spi_driver *sdrv = to_spi_driver(spi->dev.driver);
    if (sdrv->remove)
        sdrv->remove(spi);
    unbind(&spi->dev);
}

static struct net_device *spi_netdev(struct spi_device *spi)
{
    return lx_real_netdev_of_parent(&spi->dev);
}

static const char *name_of_netdev(const struct net_device *dev)
{
    return dev->name;
}

static const uint8_t *addr_of_netdev(const struct net_device *dev)
{
    return dev->dev_addr;
}

/* The device's state as the kernel's helpers read it, and its counters (ndo_get_stats's where
 * the driver keeps its own, as dev_get_stats reads them). */
static void netdev_state(const struct net_device *dev, struct lx_bus_netdev_state *out)
{
    struct net_device *d = (struct net_device *)dev;
    const struct net_device_stats *st = d->netdev_ops && d->netdev_ops->ndo_get_stats
                                            ? d->netdev_ops->ndo_get_stats(d)
                                            : &d->stats;
    memset(out, 0, sizeof(*out));
    out->registered = dev->reg_state == NETREG_REGISTERED;
    out->running = netif_running(dev);
    out->queue_stopped = netif_queue_stopped(dev);
    out->carrier = netif_carrier_ok(dev);
    out->present = netif_device_present(dev);
    LX_BUS_NETDEV_COUNTERS(out, st);
    out->netif_rx_calls = lx_real_netdev_rx_calls(dev);
}

/* The variant link's linker script gathers the initcall sections of its objects here, in level
 * order; elsewhere (the emulation's own tests) there are none. */
extern initcall_t __nicsim_initcall_start[] __attribute__((weak));
extern initcall_t __nicsim_initcall_end[] __attribute__((weak));

static int init_modules(void)
{
    static bool done;
    if (done)
        return 0;
    done = true;
    for (initcall_t *fn = __nicsim_initcall_start; fn && fn < __nicsim_initcall_end; fn++) {
        int ret = (*fn)();
        if (ret)
            return ret;
    }
    return 0;
}

const struct lx_bus_emulation lx_real_emulation = {
    .init_modules = init_modules,
    .param_set = lx_real_param_set,
    .spi_create = spi_create,
    .spi_set_bridge = lx_real_spi_set_bridge,
    .spi_probe = spi_probe,
    .spi_remove = spi_remove,
    .spi_netdev = spi_netdev,
    .netdev_name = name_of_netdev,
    .netdev_addr = addr_of_netdev,
    .netdev_open = lx_real_netdev_open,
    .netdev_stop = lx_real_netdev_stop,
    .netdev_xmit = lx_real_netdev_xmit,
    .netdev_xmit_owned = lx_real_netdev_xmit_owned,
    .netdev_set_rx_sink = lx_real_netdev_set_rx_sink,
    .netdev_set_queue_wake = lx_real_netdev_set_queue_wake,
    .netdev_state = netdev_state,
    .skb_live_count = lx_real_skb_live_count,
};
