/* SPDX-License-Identifier: MIT */
/* The 16-bit parallel bus's mapped windows and ioread16/iowrite16 (and their _rep bursts),
 * included by the io.c of both emulations (kernel/lx_emul_bus/ on the shadow headers,
 * kernel/lx_emul_real/ on a tree's real headers): the same code compiled against each header
 * set's platform_device and resource. An __iomem cookie encodes (window, offset): the low
 * LX_IO_OFFSET_BITS bits are the offset inside the window, the rest index the table of mapped
 * windows; an access decodes it and goes to base + offset on the bus bridge attached to the
 * window's device. The includer defines LX_IO_BRIDGE(pdev), the device's bus bridge
 * (bridge_c.h), and includes <linux/platform_device.h>, <linux/io.h>, lx_kit.h and bridge_c.h
 * first; io_map() is its devm_platform_ioremap_resource's. */
#ifndef LX_EMUL_BUS_IO_WINDOW_H
#define LX_EMUL_BUS_IO_WINDOW_H

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

/* Maps the bus window [r->start, r->end] of pdev: the cookie of its first byte. */
static void __iomem* io_map(struct platform_device* pdev, const struct resource* r)
{
    if (window_count == LX_IO_MAX_WINDOWS)
        lx_kit_abort("devm_platform_ioremap_resource: more than %d windows", LX_IO_MAX_WINDOWS);
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

u16 ioread16(const volatile void __iomem* addr)
{
    u64 a;
    const struct lx_io_window* w = decode(addr, &a, "ioread16");
    return lx_bus_mmio16_bridge_read(LX_IO_BRIDGE(w->pdev), dev_name(&w->pdev->dev), a);
}

void iowrite16(u16 value, volatile void __iomem* addr)
{
    u64 a;
    const struct lx_io_window* w = decode(addr, &a, "iowrite16");
    lx_bus_mmio16_bridge_write(LX_IO_BRIDGE(w->pdev), dev_name(&w->pdev->dev), a, value);
}

/* The _rep variants access the same address `count` times (a FIFO port): one bridge call for
 * all of them, so the bus can run them as a burst (per-word timing unchanged). */
void ioread16_rep(const volatile void __iomem* addr, void* buffer, unsigned int count)
{
    u64 a;
    const struct lx_io_window* w = decode(addr, &a, "ioread16_rep");
    if (!count)
        return; /* as the word loop did: no bus lookup */
    lx_bus_mmio16_bridge_read_rep(LX_IO_BRIDGE(w->pdev), dev_name(&w->pdev->dev), a, buffer,
                                  count);
}

void iowrite16_rep(volatile void __iomem* addr, const void* buffer, unsigned int count)
{
    u64 a;
    const struct lx_io_window* w = decode(addr, &a, "iowrite16_rep");
    if (!count)
        return;
    lx_bus_mmio16_bridge_write_rep(LX_IO_BRIDGE(w->pdev), dev_name(&w->pdev->dev), a, buffer,
                                   count);
}

#endif
