/* SPDX-License-Identifier: MIT */
/* linux/io.h + linux/platform_device.h subset for the KS8851-16MLL parallel bus. An __iomem
 * cookie returned by devm_platform_ioremap_resource() encodes (platform device, resource
 * index); ioread16/iowrite16 decode it and call the 16-bit bus attached to that device
 * (kernel/lx_emul_bus/mmio_bridge.cc). Drivers never dereference the cookie. */
#ifndef LX_EMUL_IO_H
#define LX_EMUL_IO_H

#include <linux/types.h>
#include <linux/device.h>
#include <linux/module.h>

#ifndef __iomem
#define __iomem
#endif

#define IORESOURCE_MEM 0x00000200
#define IORESOURCE_IRQ 0x00000400

struct resource {
    u64 start;
    u64 end;
    const char* name;
    unsigned long flags;
};

#define PLATFORM_NICSIM_MAX_RESOURCES 4

struct platform_device_id {
    char name[20];
    unsigned long driver_data;
};

struct platform_device {
    const char* name;
    int id;
    struct device dev;
    u32 num_resources;
    struct resource* resource;
    /* nicsim: memory windows (base addresses on the attached 16-bit bus) and the IRQ number. */
    struct resource nicsim_res[PLATFORM_NICSIM_MAX_RESOURCES];
    int nicsim_irq;
    void* nicsim_bridge; /* C++ side: the attached mmio16 bus (mmio_bridge.cc) */
};

#define to_platform_device(x) container_of((x), struct platform_device, dev)
static inline void* platform_get_drvdata(const struct platform_device* pdev)
{
    return dev_get_drvdata(&pdev->dev);
}
static inline void platform_set_drvdata(struct platform_device* pdev, void* data)
{
    dev_set_drvdata(&pdev->dev, data);
}

struct platform_driver {
    int (*probe)(struct platform_device*);
    int (*remove)(struct platform_device*);
    void (*remove_new)(struct platform_device*); /* 6.3 .. 6.12: remove without a result */
    void (*shutdown)(struct platform_device*);
    struct device_driver driver;
    const struct platform_device_id* id_table;
};

int lx_emul_platform_driver_register(struct platform_driver* drv, const char* modname,
                                     const char* variant);
void platform_driver_unregister(struct platform_driver* drv);
#define platform_driver_register(drv)                                                              \
    lx_emul_platform_driver_register(drv, LX_EMUL_MODNAME, LX_EMUL_VARIANT)
#define module_platform_driver(__platform_driver)                                                  \
    module_driver(__platform_driver, platform_driver_register, platform_driver_unregister)

int platform_get_irq(struct platform_device* pdev, unsigned int num);
void __iomem* devm_platform_ioremap_resource(struct platform_device* pdev, unsigned int index);

/* As the kernel declares them (asm-generic/io.h): volatile addresses. */
u8 ioread8(const volatile void __iomem* addr);
u16 ioread16(const volatile void __iomem* addr);
u32 ioread32(const volatile void __iomem* addr);
void iowrite8(u8 value, volatile void __iomem* addr);
void iowrite16(u16 value, volatile void __iomem* addr);
void iowrite32(u32 value, volatile void __iomem* addr);
void ioread16_rep(const volatile void __iomem* addr, void* buffer, unsigned int count);
void iowrite16_rep(volatile void __iomem* addr, const void* buffer, unsigned int count);

#endif
