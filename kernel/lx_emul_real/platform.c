// SPDX-License-Identifier: MIT
/* lx_emul_real: a platform device's resources and its 16-bit parallel bus (KS8851-16MLL) on the
 * kernel's platform_device. The resources are the kernel's array (resource, num_resources, as
 * platform_device_add_resources fills it): platform_get_resource finds the num-th of a type,
 * platform_get_irq the num-th IRQ's number, devm_platform_ioremap_resource maps the index-th
 * memory resource as a window of the bus bridge the simulator attached to the device (kept
 * beside it, lx_real_platform_set_bridge). The windows and ioread16/iowrite16 (and _rep) are the
 * shadow headers' code compiled on these layouts (kernel/lx_emul_bus/io_window.h). */
#include <linux/err.h>
#include <linux/io.h>
#include <linux/platform_device.h>

#include <lx_emul/real.h>

#include "../lx_emul_bus/bridge_c.h"
#include "internal.h"

struct platform_side {
    void *bridge;
};

static struct platform_side *side_of(const struct platform_device *pdev)
{
    return lx_real_side(pdev, sizeof(struct platform_side));
}

void lx_real_platform_set_bridge(struct platform_device *pdev, void *bridge)
{
    side_of(pdev)->bridge = bridge;
}

#define LX_IO_BRIDGE(pdev) (side_of(pdev)->bridge)
#include "../lx_emul_bus/io_window.h"

struct resource *platform_get_resource(struct platform_device *dev, unsigned int type,
                                       unsigned int num)
{
    for (u32 i = 0; i < dev->num_resources; i++) {
        struct resource *r = &dev->resource[i];
        if (resource_type(r) == type && num-- == 0)
            return r;
    }
    return NULL;
}

int platform_get_irq(struct platform_device *pdev, unsigned int num)
{
    struct resource *r = platform_get_resource(pdev, IORESOURCE_IRQ, num);
    if (!r || !r->start) {
        dev_err(&pdev->dev, "IRQ index %u not found\n", num);
        return -ENXIO;
    }
    return r->start;
}

void __iomem *devm_platform_ioremap_resource(struct platform_device *pdev, unsigned int index)
{
    struct resource *r = platform_get_resource(pdev, IORESOURCE_MEM, index);
    if (!r)
        return IOMEM_ERR_PTR(-EINVAL); /* devm_ioremap_resource: no such resource */
    return io_map(pdev, r);
}
