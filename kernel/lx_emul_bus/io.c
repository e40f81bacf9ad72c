// SPDX-License-Identifier: MIT
/* Platform resources and the 16-bit parallel bus (KS8851-16MLL). An __iomem cookie encodes
 * (platform device, resource index, offset): the low LX_IO_OFFSET_BITS bits are the offset
 * inside the window, the rest index a table of mapped windows. ioread16/iowrite16 decode it
 * and access base + offset on the bus attached to the device. */
#include <linux/kernel.h>
#include <linux/platform_device.h>
#include <linux/io.h>
#include <linux/errno.h>
#include <linux/err.h>

#include <lx_kit/lx_kit.h>

#include "bridge_c.h"

#define LX_IO_OFFSET_BITS 16
#define LX_IO_MAX_WINDOWS 32
/* Cookies start at a high, page-aligned address so a stray dereference faults loudly. */
#define LX_IO_COOKIE_BASE 0x7f5a00000000ull

struct lx_io_window {
    struct platform_device* pdev;
    u64 base;
    u64 size;
};
static struct lx_io_window windows[LX_IO_MAX_WINDOWS];
static unsigned window_count;

void __iomem* devm_platform_ioremap_resource(struct platform_device* pdev, unsigned int index)
{
    const struct resource* r;
    if (index >= PLATFORM_NICSIM_MAX_RESOURCES || !(pdev->nicsim_res[index].flags & IORESOURCE_MEM))
        return ERR_PTR(-EINVAL); /* platform_get_resource() found no such MEM resource */
    if (window_count == LX_IO_MAX_WINDOWS)
        lx_kit_abort("devm_platform_ioremap_resource: more than %d windows", LX_IO_MAX_WINDOWS);
    r = &pdev->nicsim_res[index];
    windows[window_count].pdev = pdev;
    windows[window_count].base = r->start;
    windows[window_count].size = r->end - r->start + 1;
    return (void __iomem*)(uintptr_t)(LX_IO_COOKIE_BASE +
                                      ((u64)window_count++ << LX_IO_OFFSET_BITS));
}

static const struct lx_io_window* decode(const volatile void __iomem* addr, u64* bus_addr,
                                         const char* what)
{
    u64 c = (u64)(uintptr_t)addr;
    u64 idx, off;
    if (c < LX_IO_COOKIE_BASE)
        lx_kit_abort("%s(%p): not an address from devm_platform_ioremap_resource", what, addr);
    idx = (c - LX_IO_COOKIE_BASE) >> LX_IO_OFFSET_BITS;
    off = (c - LX_IO_COOKIE_BASE) & ((1u << LX_IO_OFFSET_BITS) - 1);
    if (idx >= window_count || off >= windows[idx].size)
        lx_kit_abort("%s(%p): outside every mapped window", what, addr);
    *bus_addr = windows[idx].base + off;
    return &windows[idx];
}

u16 ioread16(const void __iomem* addr)
{
    u64 a;
    const struct lx_io_window* w = decode(addr, &a, "ioread16");
    return lx_bus_mmio16_bridge_read(w->pdev->nicsim_bridge, dev_name(&w->pdev->dev), a);
}

void iowrite16(u16 value, void __iomem* addr)
{
    u64 a;
    const struct lx_io_window* w = decode(addr, &a, "iowrite16");
    lx_bus_mmio16_bridge_write(w->pdev->nicsim_bridge, dev_name(&w->pdev->dev), a, value);
}

/* The _rep variants access the same address `count` times (a FIFO port): one bridge call for
 * all of them, so the bus can run them as a burst (per-word timing unchanged). */
void ioread16_rep(const void __iomem* addr, void* buffer, unsigned int count)
{
    u64 a;
    const struct lx_io_window* w = decode(addr, &a, "ioread16_rep");
    if (!count)
        return; /* as the word loop did: no bus lookup */
    lx_bus_mmio16_bridge_read_rep(w->pdev->nicsim_bridge, dev_name(&w->pdev->dev), a, buffer,
                                  count);
}

void iowrite16_rep(void __iomem* addr, const void* buffer, unsigned int count)
{
    u64 a;
    const struct lx_io_window* w = decode(addr, &a, "iowrite16_rep");
    if (!count)
        return;
    lx_bus_mmio16_bridge_write_rep(w->pdev->nicsim_bridge, dev_name(&w->pdev->dev), a, buffer,
                                   count);
}

int platform_get_irq(struct platform_device* pdev, unsigned int num)
{
    if (num != 0 || pdev->nicsim_irq <= 0) {
        dev_err(&pdev->dev, "IRQ index %u not found\n", num);
        return -ENXIO;
    }
    return pdev->nicsim_irq;
}
