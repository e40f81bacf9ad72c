/* SPDX-License-Identifier: MIT */
/* struct device, device_driver, device tree nodes, PM ops: the device-model subset the wilc1000
 * and ks8851 drivers use. Devices are embedded by value in their bus devices (spi_device,
 * sdio_func, platform_device) because the drivers use container_of on them. */
#ifndef LX_EMUL_DEVICE_H
#define LX_EMUL_DEVICE_H

#include <linux/types.h>

struct module;
struct device;

struct dev_pm_ops {
    int (*prepare)(struct device* dev);
    void (*complete)(struct device* dev);
    int (*suspend)(struct device* dev);
    int (*resume)(struct device* dev);
    int (*freeze)(struct device* dev);
    int (*thaw)(struct device* dev);
    int (*poweroff)(struct device* dev);
    int (*restore)(struct device* dev);
    int (*runtime_suspend)(struct device* dev);
    int (*runtime_resume)(struct device* dev);
    int (*runtime_idle)(struct device* dev);
};

/* As in the kernel: the sleep callbacks are referenced only with CONFIG_PM_SLEEP (nicsim's
 * build does not set it: no system suspend is modelled, and the drivers then compile their
 * suspend/resume functions out). */
#ifdef CONFIG_PM_SLEEP
#define SET_SYSTEM_SLEEP_PM_OPS(s, r) .suspend = s, .resume = r, .freeze = s, .thaw = r, \
                                      .poweroff = s, .restore = r,
#else
#define SET_SYSTEM_SLEEP_PM_OPS(s, r)
#endif
#define SIMPLE_DEV_PM_OPS(name, s, r) \
    const struct dev_pm_ops __maybe_unused name = { SET_SYSTEM_SLEEP_PM_OPS(s, r) }
#define pm_ptr(p) (p)
#define pm_sleep_ptr(p) (p)

/* Device tree: the testbench builds a node per device; the drivers read only the MAC address
 * (ks8851, of_get_ethdev_address) and an optional OOB interrupt (wilc1000 sdio.c). */
struct device_node {
    const char* name;
    const char* full_name;
    const char* compatible;
    bool has_mac_address;    /* "local-mac-address" present */
    u8 mac_address[6];
    int irq;                 /* of_irq_get(np, 0) result; <= 0 means none */
};

struct of_device_id {
    char name[32];
    char type[32];
    char compatible[128];
    const void* data;
};

struct device_driver {
    const char* name;
    struct module* owner;
    const struct of_device_id* of_match_table;
    const struct dev_pm_ops* pm;
};

struct device {
    struct device* parent;
    const char* init_name;       /* dev_name() */
    struct device_node* of_node;
    struct device_driver* driver;
    void* driver_data;           /* dev_get/set_drvdata */
    void* platform_data;
    /* nicsim: the driver bound by lx_bus_*_probe (KBUILD_MODNAME and variant), so
     * register_netdev can file a net_device under its driver variant. */
    const char* nicsim_modname;
    const char* nicsim_variant;
};

static inline const char* dev_name(const struct device* dev)
{
    return dev && dev->init_name ? dev->init_name : "(no device)";
}
static inline void* dev_get_drvdata(const struct device* dev) { return dev->driver_data; }
static inline void dev_set_drvdata(struct device* dev, void* data) { dev->driver_data = data; }

#endif
