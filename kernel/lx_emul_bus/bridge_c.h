/* SPDX-License-Identifier: MIT */
/* The seam between the C kernel functions of lx_emul_bus (spi.c, sdio.c, io.c) and their C++
 * bridges (bus_bridge.cc): plain C types only, no Linux headers, so both sides include it.
 * Each bus device carries an opaque `bridge` pointer the testbench set via nicsim/bus_attach.h; a
 * NULL bridge means "nothing attached" and the C++ side stops the run with a clear message. */
#ifndef LX_EMUL_BUS_BRIDGE_C_H
#define LX_EMUL_BUS_BRIDGE_C_H

/* C on the real kernel headers (kernel/lx_emul_real/) has no C library: the kernel's types. */
#ifdef NICSIM_REAL_KERNEL_HEADERS
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* One spi_transfer, flattened. */
struct lx_bus_spi_xfer {
    const void* tx;         /* NULL: shift out zeros */
    void* rx;               /* NULL: discard MISO */
    unsigned len;
    unsigned bits_per_word; /* resolved (never 0) */
    uint32_t speed_hz;      /* 0: the frame's speed */
    uint64_t delay_after_ns;
    int cs_change;
};

/* Runs one spi_message as one chip-select frame. `who` names the device for messages.
 * Returns 0, or a negative errno (-EIO) when the slave reported a protocol error. */
int lx_bus_spi_bridge_transfer(void* bridge, const char* who, unsigned cs, uint32_t speed_hz,
                               unsigned mode, const struct lx_bus_spi_xfer* xfers, size_t n);

/* SDIO: CMD52 and CMD53 on function `fn`. Return 0 or a negative errno. */
int lx_bus_sdio_bridge_cmd52(void* bridge, const char* who, unsigned fn, int write,
                             unsigned addr, uint8_t* data);
int lx_bus_sdio_bridge_cmd53(void* bridge, const char* who, unsigned fn, int write,
                             unsigned addr, int incr_addr, int block_mode, unsigned count,
                             unsigned blksz, uint8_t* buf);
/* Blocks the calling task until the host controller recognises the card's in-band interrupt
 * (and its interrupt path has run). */
void lx_bus_sdio_bridge_wait_irq(void* bridge, const char* who);
void lx_bus_sdio_bridge_claim(void* bridge, const char* who);
void lx_bus_sdio_bridge_release(void* bridge, const char* who);
/* host->ops->enable_sdio_irq(host, on) (sdio_card_irq_get/put). */
void lx_bus_sdio_bridge_enable_irq(void* bridge, const char* who, int on);

/* 16-bit parallel bus. */
uint16_t lx_bus_mmio16_bridge_read(void* bridge, const char* who, uint64_t addr);
void lx_bus_mmio16_bridge_write(void* bridge, const char* who, uint64_t addr, uint16_t value);
/* ioread16_rep/iowrite16_rep: `count` accesses of one address in one call (a bus burst). */
void lx_bus_mmio16_bridge_read_rep(void* bridge, const char* who, uint64_t addr, uint16_t* buf,
                                   size_t count);
void lx_bus_mmio16_bridge_write_rep(void* bridge, const char* who, uint64_t addr,
                                    const uint16_t* buf, size_t count);

#ifdef __cplusplus
}
#endif

#endif

#ifdef __cplusplus
extern "C" {
#endif
struct spi_device;
struct sdio_func;
struct platform_device;
/* Store the bridge object in the kernel device (implemented in registry.c, called by C++). */
void lx_bus_spi_set_bridge(struct spi_device* spi, void* bridge);
void lx_bus_sdio_set_bridge(struct sdio_func* func, void* bridge);
void lx_bus_platform_set_bridge(struct platform_device* pdev, void* bridge);
#ifdef __cplusplus
}
#endif
