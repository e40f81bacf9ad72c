// SPDX-License-Identifier: MIT
/* Platform resources and the 16-bit parallel bus (KS8851-16MLL) on the shadow headers'
 * platform_device: its resources and IRQ are nicsim fields; the mapped windows and
 * ioread16/iowrite16 are io_window.h, which the real headers' emulation compiles too. */
#include <linux/kernel.h>
#include <linux/platform_device.h>
#include <linux/io.h>
#include <linux/errno.h>
#include <linux/err.h>

#include <lx_kit/lx_kit.h>

#include "bridge_c.h"

/* The device's bus bridge on the shadow headers' platform_device. */
#define LX_IO_BRIDGE(pdev) ((pdev)->nicsim_bridge)
#include "io_window.h"

void __iomem* devm_platform_ioremap_resource(struct platform_device* pdev, unsigned int index)
{
    if (index >= PLATFORM_NICSIM_MAX_RESOURCES || !(pdev->nicsim_res[index].flags & IORESOURCE_MEM))
        return ERR_PTR(-EINVAL); /* platform_get_resource() found no such MEM resource */
    return io_map(pdev, &pdev->nicsim_res[index]);
}

int platform_get_irq(struct platform_device* pdev, unsigned int num)
{
    if (num != 0 || pdev->nicsim_irq <= 0) {
        dev_err(&pdev->dev, "IRQ index %u not found\n", num);
        return -ENXIO;
    }
    return pdev->nicsim_irq;
}
