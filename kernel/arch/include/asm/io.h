/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_IO_H
#define _NICSIM_ASM_IO_H
/* Memory-mapped I/O goes to the bus bridges (the emulation's io.c → the board's mmio16 port),
 * never to memory: an __iomem cookie names a device window, not an address. So every accessor
 * asm-generic/io.h would make a pointer access is declared here as an emulation function (the
 * generic header skips what is already defined), and the readX/writeX and string forms it
 * builds on them reach the bridge too. */
#include <linux/types.h>

#define NICSIM_IO_ACCESSORS(sz, t)                                                              \
    t __raw_read##sz(const volatile void __iomem *addr);                                        \
    void __raw_write##sz(t value, volatile void __iomem *addr);
NICSIM_IO_ACCESSORS(b, u8)
NICSIM_IO_ACCESSORS(w, u16)
NICSIM_IO_ACCESSORS(l, u32)
NICSIM_IO_ACCESSORS(q, u64)
#undef NICSIM_IO_ACCESSORS
#define __raw_readb __raw_readb
#define __raw_readw __raw_readw
#define __raw_readl __raw_readl
#define __raw_readq __raw_readq
#define __raw_writeb __raw_writeb
#define __raw_writew __raw_writew
#define __raw_writel __raw_writel
#define __raw_writeq __raw_writeq

/* The port-style accessors and their string forms: one bus burst each, as the emulation
 * times them, not one call per element. */
#define NICSIM_IOMAP_ACCESSORS(bits)                                                            \
    u##bits ioread##bits(const volatile void __iomem *addr);                                    \
    void iowrite##bits(u##bits value, volatile void __iomem *addr);                             \
    void ioread##bits##_rep(const volatile void __iomem *addr, void *buffer, unsigned int count); \
    void iowrite##bits##_rep(volatile void __iomem *addr, const void *buffer, unsigned int count);
NICSIM_IOMAP_ACCESSORS(8)
NICSIM_IOMAP_ACCESSORS(16)
NICSIM_IOMAP_ACCESSORS(32)
#undef NICSIM_IOMAP_ACCESSORS
#define ioread8 ioread8
#define ioread16 ioread16
#define ioread32 ioread32
#define iowrite8 iowrite8
#define iowrite16 iowrite16
#define iowrite32 iowrite32
#define ioread8_rep ioread8_rep
#define ioread16_rep ioread16_rep
#define ioread32_rep ioread32_rep
#define iowrite8_rep iowrite8_rep
#define iowrite16_rep iowrite16_rep
#define iowrite32_rep iowrite32_rep

#include <asm-generic/io.h>
#endif
