// SPDX-License-Identifier: MIT
// Attaching bus models to the kernel devices the driver emulation created (nicsim/lx_bus.h):
// the C++ side of spi_sync (SPI host controller), sdio_* (SDIO host) and ioread16/iowrite16
// (16-bit parallel bus). Each device gets its own attachment, so two drivers on two buses never
// share state. No Linux header is needed: kernel devices are opaque pointers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bus/spi/spi_payload.h"

struct spi_device;
struct sdio_func;
struct platform_device;

namespace nicsim::spi {
class spi_host;
}
namespace nicsim::par {
class par_host;
}

namespace nicsim::lx_bus {

// Anything that can run one SPI chip-select frame from an SC_THREAD (blocking). spi_host is
// adapted by spi_attach(dev, host, cs); tests may implement this directly.
struct spi_port {
    virtual ~spi_port() = default;
    virtual void transfer(nicsim::spi::spi_payload& frame) = 0;
};

// The SDIO host controller as the driver emulation sees it: CMD52 and CMD53 issued on the
// calling SC_THREAD (blocking for their bus time). Return 0 or a negative errno (e.g. -ETIMEDOUT
// for no response). `count` is blocks in block mode, bytes in byte mode.
struct sdio_host_if {
    virtual ~sdio_host_if() = default;
    virtual int cmd52(unsigned fn, bool write, unsigned addr, uint8_t& data) = 0;
    virtual int cmd53(unsigned fn, bool write, unsigned addr, bool incr_addr, bool block_mode,
                      unsigned count, unsigned blksz, uint8_t* buf) = 0;
    // sdio_claim_host / sdio_release_host (host-controller bookkeeping; default nothing).
    virtual void claim() {}
    virtual void release() {}
    // The MMC core's host->ops->enable_sdio_irq(host, on), called with the host claimed when
    // the first SDIO interrupt handler is claimed and the last released (default nothing).
    virtual void enable_sdio_irq(bool /*on*/) {}
    // The MMC core's SDIO interrupt thread waits here (on its own SC_THREAD) until the host
    // controller has recognised the card's in-band interrupt and its interrupt path (hard IRQ,
    // sdio_signal_irq, work item) has run; the driver's handler then runs with the host claimed.
    // Level semantics: the handler must clear the card's source or this returns again at once.
    // A host without in-band interrupt support leaves the default, which stops the run.
    virtual void wait_irq();
};

// A 16-bit parallel bus (KS8851-16MLL): addr is the bus address (resource base + offset).
// The implementation owns the access timing (it may wait; it runs on the caller's SC_THREAD).
struct mmio16_bus_if {
    virtual ~mmio16_bus_if() = default;
    virtual uint16_t read16(uint64_t addr) = 0;
    virtual void write16(uint64_t addr, uint16_t value) = 0;
    // ioread16_rep/iowrite16_rep: `n` accesses of one address (a FIFO port) in one call, so a
    // bus model can run them as a burst. The default is one read16/write16 per word.
    virtual void read16_rep(uint64_t addr, uint16_t* out, size_t n) {
        while (n--)
            *out++ = read16(addr);
    }
    virtual void write16_rep(uint64_t addr, const uint16_t* in, size_t n) {
        while (n--)
            write16(addr, *in++);
    }
};

// Attach the bus to a device; replaces a previous attachment. The attached objects must
// outlive the simulation run (not owned).
void spi_attach(::spi_device* dev, nicsim::spi::spi_host& host, unsigned cs);
void spi_attach(::spi_device* dev, spi_port& port, unsigned cs);
void sdio_attach(::sdio_func* func, sdio_host_if& host);
void mmio16_attach(::platform_device* pdev, mmio16_bus_if& bus);
// The bus model itself, each access blocking for its strobe timing (no CPU cost).
void mmio16_attach(::platform_device* pdev, nicsim::par::par_host& host);

} // namespace nicsim::lx_bus
