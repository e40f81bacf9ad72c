// SPDX-License-Identifier: MIT
/* The driver registry (spi/sdio/platform drivers registered by module_init constructors of
 * every linked variant) and device creation + probe for the testbench (nicsim/lx_bus.h). */
#include <linux/kernel.h>
#include <linux/spi/spi.h>
#include <linux/mmc/sdio_func.h>
#include <linux/mmc/host.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/interrupt.h>

#include <lx_kit/lx_kit.h>
#include <nicsim/lx_bus.h>
#include <nicsim/lx_bus_emulation.h>

#include <stdio.h>

#define LX_DRIVERS_MAX 32
#define LX_DEVICES_MAX 32

struct lx_driver_entry {
    enum lx_bus_kind bus;
    void* drv;
    const char* name;
    const char* modname;
    const char* variant;
};
static struct lx_driver_entry drivers[LX_DRIVERS_MAX];
static size_t driver_count;

/* Every device created stays reachable until exit (the kernel objects hang off it). */
static void* devices[LX_DEVICES_MAX];
static size_t device_count;

static void add_driver(enum lx_bus_kind bus, void* drv, const char* name, const char* modname,
                       const char* variant)
{
    for (size_t i = 0; i < driver_count; i++)
        if (drivers[i].drv == drv)
            lx_kit_abort("driver %s (%s/%s) registered twice", name, modname, variant);
    if (driver_count == LX_DRIVERS_MAX)
        lx_kit_abort("more than %d drivers registered", LX_DRIVERS_MAX);
    drivers[driver_count++] = (struct lx_driver_entry){bus, drv, name, modname, variant};
}

static void remove_driver(void* drv)
{
    for (size_t i = 0; i < driver_count; i++) {
        if (drivers[i].drv == drv) {
            for (size_t j = i + 1; j < driver_count; j++)
                drivers[j - 1] = drivers[j];
            driver_count--;
            return;
        }
    }
}

int lx_emul_spi_register_driver(struct spi_driver* drv, const char* modname, const char* variant)
{
    add_driver(LX_BUS_SPI, drv, drv->driver.name, modname, variant);
    return 0;
}
void spi_unregister_driver(struct spi_driver* drv) { remove_driver(drv); }

int lx_emul_sdio_register_driver(struct sdio_driver* drv, const char* modname, const char* variant)
{
    add_driver(LX_BUS_SDIO, drv, drv->name, modname, variant);
    return 0;
}
void sdio_unregister_driver(struct sdio_driver* drv) { remove_driver(drv); }

int lx_emul_platform_driver_register(struct platform_driver* drv, const char* modname,
                                     const char* variant)
{
    add_driver(LX_BUS_PLATFORM, drv, drv->driver.name, modname, variant);
    return 0;
}
void platform_driver_unregister(struct platform_driver* drv) { remove_driver(drv); }

size_t lx_bus_driver_count(void) { return driver_count; }

int lx_bus_driver_get(size_t i, struct lx_bus_driver_info* out)
{
    if (i >= driver_count)
        return -1;
    out->bus = drivers[i].bus;
    out->name = drivers[i].name;
    out->modname = drivers[i].modname;
    out->variant = drivers[i].variant;
    return 0;
}

static const struct lx_driver_entry* find_driver(enum lx_bus_kind bus, const char* modname,
                                                 const char* variant)
{
    for (size_t i = 0; i < driver_count; i++)
        if (drivers[i].bus == bus && !strcmp(drivers[i].modname, modname) &&
            !strcmp(drivers[i].variant, variant))
            return &drivers[i];
    lx_kit_abort("no %s driver registered by module %s in variant %s (is the variant linked?)",
                 bus == LX_BUS_SPI ? "spi" : bus == LX_BUS_SDIO ? "sdio" : "platform", modname,
                 variant);
}

static void keep(void* obj)
{
    if (device_count == LX_DEVICES_MAX)
        lx_kit_abort("more than %d devices created", LX_DEVICES_MAX);
    devices[device_count++] = obj;
}

static char* dup_str(const char* s, const char* fallback)
{
    const char* src = s ? s : fallback;
    char* d = kmalloc(strlen(src) + 1, GFP_KERNEL);
    if (!d)
        lx_kit_abort("out of memory");
    strcpy(d, src);
    return d;
}

static struct device_node* make_node(const struct lx_bus_device_desc* desc)
{
    struct device_node* np = kzalloc(sizeof(*np), GFP_KERNEL);
    if (!np)
        lx_kit_abort("out of memory");
    np->name = dup_str(desc->name, "device");
    np->full_name = np->name;
    np->compatible = dup_str(desc->compatible, "");
    np->has_mac_address = desc->has_mac_address != 0;
    memcpy(np->mac_address, desc->mac_address, 6);
    np->irq = desc->irq;
    return np;
}

static void bind(struct device* dev, const struct lx_driver_entry* e, struct device_driver* drv)
{
    dev->driver = drv;
    dev->nicsim_modname = e->modname;
    dev->nicsim_variant = e->variant;
}

/* ---- devices of another emulation (nicsim/lx_bus_emulation.h) ------------------------------- */

/* Each device another emulation made, and the net device found under it (its parent: the
 * device, forgotten with it at unbind, before its memory can be another device's). */
static struct {
    const void* dev;
    const void* parent; /* NULL for a bus device */
    const struct lx_bus_emulation* emu;
} owned[LX_DEVICES_MAX];
static size_t owned_count;

const struct lx_bus_emulation* lx_bus_device_emulation(const void* dev)
{
    for (size_t i = 0; i < owned_count; i++)
        if (owned[i].dev == dev)
            return owned[i].emu;
    return NULL;
}

static void own(const void* dev, const void* parent, const struct lx_bus_emulation* emu)
{
    if (lx_bus_device_emulation(dev))
        return;
    if (owned_count == LX_DEVICES_MAX)
        lx_kit_abort("more than %d devices of other emulations", LX_DEVICES_MAX);
    owned[owned_count].dev = dev;
    owned[owned_count].parent = parent;
    owned[owned_count].emu = emu;
    owned_count++;
}

struct spi_device* lx_bus_spi_create_on(const struct lx_bus_emulation* emu,
                                        const struct lx_bus_device_desc* desc)
{
    struct spi_device* spi = emu->spi_create(desc);
    own(spi, NULL, emu);
    return spi;
}

struct net_device* lx_bus_spi_netdev(struct spi_device* spi)
{
    const struct lx_bus_emulation* emu = lx_bus_device_emulation(spi);
    if (!emu)
        return NULL;
    struct net_device* dev = emu->spi_netdev(spi);
    if (dev)
        own(dev, spi, emu);
    return dev;
}

void lx_bus_spi_remove(struct spi_device* spi)
{
    const struct lx_bus_emulation* emu = lx_bus_device_emulation(spi);
    if (!emu)
        lx_kit_abort("lx_bus_spi_remove: the shadow-header emulation does not unbind devices");
    emu->spi_remove(spi);
    size_t kept = 0;
    for (size_t i = 0; i < owned_count; i++)
        if (owned[i].parent != spi)
            owned[kept++] = owned[i];
    owned_count = kept;
}

/* ---- SPI -------------------------------------------------------------------------------------- */

struct spi_device* lx_bus_spi_create(const struct lx_bus_device_desc* desc)
{
    struct spi_controller* ctlr = kzalloc(sizeof(*ctlr), GFP_KERNEL);
    struct spi_device* spi = kzalloc(sizeof(*spi), GFP_KERNEL);
    if (!ctlr || !spi)
        lx_kit_abort("out of memory");
    ctlr->flags = desc->controller_flags;
    ctlr->num_chipselect = 1;
    ctlr->dev.init_name = "spi-controller";
    spi->controller = ctlr;
    spi->master = ctlr;
    spi->dev.parent = &ctlr->dev;
    spi->dev.init_name = dup_str(desc->name, "spi0.0");
    spi->dev.of_node = make_node(desc);
    spi->max_speed_hz = desc->max_speed_hz;
    spi->chip_select = (u8)desc->chip_select;
    spi->mode = desc->spi_mode;
    spi->bits_per_word = 8;
    spi->irq = desc->irq;
    keep(spi);
    return spi;
}

int lx_bus_spi_probe(struct spi_device* spi, const char* modname, const char* variant)
{
    const struct lx_driver_entry* e = find_driver(LX_BUS_SPI, modname, variant);
    struct spi_driver* drv = e->drv;
    if (drv->id_table)
        snprintf(spi->modalias, SPI_NAME_SIZE, "%s", drv->id_table[0].name);
    bind(&spi->dev, e, &drv->driver);
    return drv->probe(spi);
}

/* ---- SDIO ------------------------------------------------------------------------------------- */

struct sdio_func* lx_bus_sdio_create(const struct lx_bus_device_desc* desc, unsigned func_num)
{
    struct mmc_host* host = kzalloc(sizeof(*host), GFP_KERNEL);
    struct mmc_card* card = kzalloc(sizeof(*card), GFP_KERNEL);
    struct sdio_func* func = kzalloc(sizeof(*func), GFP_KERNEL);
    if (!host || !card || !func)
        lx_kit_abort("out of memory");
    host->max_blk_size = 512;
    host->max_blk_count = 511;
    host->max_req_size = 512 * 511;
    card->host = host;
    card->dev.init_name = "mmc0:0001";
    card->dev.of_node = make_node(desc);
    func->card = card;
    func->num = func_num;
    func->max_blksize = 512;
    func->cur_blksize = 512;
    func->dev.parent = &card->dev;
    func->dev.init_name = dup_str(desc->name, "mmc0:0001:1");
    func->dev.of_node = card->dev.of_node;
    keep(func);
    return func;
}

int lx_bus_sdio_probe(struct sdio_func* func, const char* modname, const char* variant)
{
    const struct lx_driver_entry* e = find_driver(LX_BUS_SDIO, modname, variant);
    struct sdio_driver* drv = e->drv;
    if (!drv->id_table)
        lx_kit_abort("sdio driver %s has no id table", drv->name);
    /* The device is the one the driver's first id entry names (what the card enumerated as). */
    func->vendor = drv->id_table[0].vendor;
    func->device = drv->id_table[0].device;
    bind(&func->dev, e, &drv->drv);
    return drv->probe(func, &drv->id_table[0]);
}

/* ---- platform --------------------------------------------------------------------------------- */

struct platform_device* lx_bus_platform_create(const struct lx_bus_device_desc* desc)
{
    struct platform_device* pdev = kzalloc(sizeof(*pdev), GFP_KERNEL);
    if (!pdev)
        lx_kit_abort("out of memory");
    pdev->name = dup_str(desc->name, "platform-device");
    pdev->id = -1;
    pdev->dev.init_name = pdev->name;
    pdev->dev.of_node = make_node(desc);
    for (int i = 0; i < 2; i++) {
        if (!desc->mem_size[i])
            continue;
        pdev->nicsim_res[i].start = desc->mem_base[i];
        pdev->nicsim_res[i].end = desc->mem_base[i] + desc->mem_size[i] - 1;
        pdev->nicsim_res[i].flags = IORESOURCE_MEM;
    }
    pdev->resource = pdev->nicsim_res;
    pdev->num_resources = 2;
    pdev->nicsim_irq = desc->irq;
    keep(pdev);
    return pdev;
}

int lx_bus_platform_probe(struct platform_device* pdev, const char* modname, const char* variant)
{
    const struct lx_driver_entry* e = find_driver(LX_BUS_PLATFORM, modname, variant);
    struct platform_driver* drv = e->drv;
    bind(&pdev->dev, e, &drv->driver);
    return drv->probe(pdev);
}

/* ---- bridges ---------------------------------------------------------------------------------- */

#include "bridge_c.h"

void lx_bus_spi_set_bridge(struct spi_device* spi, void* bridge)
{
    const struct lx_bus_emulation* emu = lx_bus_device_emulation(spi);
    if (emu)
        emu->spi_set_bridge(spi, bridge);
    else
        spi->nicsim_bridge = bridge;
}
void lx_bus_sdio_set_bridge(struct sdio_func* func, void* bridge)
{
    func->nicsim_bridge = bridge;
}
void lx_bus_platform_set_bridge(struct platform_device* pdev, void* bridge)
{
    pdev->nicsim_bridge = bridge;
}

/* ---- wilc1000 glue entry points --------------------------------------------------------------- */

#define LX_WILC_VARIANTS_MAX 8
static struct {
    const char* variant;
    const struct lx_bus_wilc_ops* ops;
} wilc_ops[LX_WILC_VARIANTS_MAX];
static size_t wilc_ops_count;

void lx_bus_wilc_ops_register(const char* variant, const struct lx_bus_wilc_ops* ops)
{
    if (wilc_ops_count == LX_WILC_VARIANTS_MAX)
        lx_kit_abort("lx_bus_wilc_ops_register(%s): too many variants", variant);
    wilc_ops[wilc_ops_count].variant = variant;
    wilc_ops[wilc_ops_count].ops = ops;
    wilc_ops_count++;
}

const struct lx_bus_wilc_ops* lx_bus_wilc_ops_find(const char* variant)
{
    for (size_t i = 0; i < wilc_ops_count; i++)
        if (!strcmp(wilc_ops[i].variant, variant))
            return wilc_ops[i].ops;
    return NULL;
}

/* The testbench's interrupt count for a device: what the driver handled, not what the line did. */
unsigned long lx_bus_irq_handler_runs(int irq)
{
    return irq > 0 ? lx_emul_irq_thread_runs((unsigned int)irq) : 0;
}
