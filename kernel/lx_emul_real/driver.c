// SPDX-License-Identifier: MIT
/* lx_emul_real: driver registration on the SPI and platform buses. Registering sets the driver's
 * bus and owner as the kernel's bus cores do and records it, by bus and name, where the
 * simulator will look for the driver of a device it creates (lx_real_driver_find); a name
 * registered twice on one bus fails with -EBUSY as in driver_register. Binding to devices and
 * probing are the device side's (docs/driver-build.md, "What is left"). */
#include <linux/device/driver.h>
#include <linux/platform_device.h>
#include <linux/spi/spi.h>
#include <linux/string.h>

#include <lx_emul/real.h>

#include "internal.h"

#define DRIVERS_MAX 32

/* 6.12's bus types are const. */
#if LX_REAL_KERNEL_AT_LEAST(6, 12)
#define BUS_CONST const
#else
#define BUS_CONST
#endif

BUS_CONST struct bus_type spi_bus_type = {.name = "spi"};
BUS_CONST struct bus_type platform_bus_type = {.name = "platform"};

static struct device_driver *drivers[DRIVERS_MAX];

struct device_driver *lx_real_driver_find(const char *bus, const char *name)
{
    for (int i = 0; i < DRIVERS_MAX; i++)
        if (drivers[i] && strcmp(drivers[i]->bus->name, bus) == 0 &&
            strcmp(drivers[i]->name, name) == 0)
            return drivers[i];
    return NULL;
}

static int driver_add(struct device_driver *drv, BUS_CONST struct bus_type *bus,
                      struct module *owner)
{
    if (!drv->name)
        lx_kit_abort("registering a %s driver without a name", bus->name);
    if (lx_real_driver_find(bus->name, drv->name))
        return -EBUSY;
    for (int i = 0; i < DRIVERS_MAX; i++) {
        if (!drivers[i]) {
            drv->bus = bus;
            drv->owner = owner;
            drivers[i] = drv;
            return 0;
        }
    }
    lx_kit_abort("more than %d drivers registered", DRIVERS_MAX);
}

int __spi_register_driver(struct module *owner, struct spi_driver *sdrv)
{
    return driver_add(&sdrv->driver, &spi_bus_type, owner);
}

int __platform_driver_register(struct platform_driver *drv, struct module *owner)
{
    return driver_add(&drv->driver, &platform_bus_type, owner);
}

void driver_unregister(struct device_driver *drv)
{
    for (int i = 0; i < DRIVERS_MAX; i++) {
        if (drivers[i] == drv) {
            drivers[i] = NULL;
            return;
        }
    }
    lx_kit_abort("driver_unregister(%s): not registered", drv->name);
}

void platform_driver_unregister(struct platform_driver *drv)
{
    driver_unregister(&drv->driver);
}
