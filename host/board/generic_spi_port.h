// SPDX-License-Identifier: MIT
// spi_host.cpu_cost: generic — the SPI host controller as the driver's spi_sync sees it on a
// board whose controller driver has no polling mode (e.g. atmel_spi): the controller driver's
// per-message software overhead runs on a CPU core, and a frame the CPU feeds by PIO keeps the
// core busy for its whole bus time; DMA frames leave the core free while they shift. So driver
// threads and the traffic application compete for the CPU as on the board.
#pragma once

#include "bus/common/local_time.h"
#include "bus/spi/spi_host.h"
#include "kernel/include/nicsim/bus_attach.h"
#include "host/cpu/host_cpu.h"

namespace nicsim::board {

class generic_spi_port : public lx_bus::spi_port {
  public:
    // `host` must be configured with per_message_overhead = 0: this port charges it on the CPU.
    generic_spi_port(host_cpu& cpu, spi::spi_host& host, unsigned cs,
                     sc_core::sc_time per_message_overhead, size_t dma_threshold_bytes)
        : m_cpu(cpu), m_host(host), m_cs(cs), m_overhead(per_message_overhead),
          m_dma_threshold(dma_threshold_bytes) {}

    void transfer(spi::spi_payload& frame) override {
        // Runs on the caller's local time (bus/common/local_time.h).
        frame.cs = m_cs;
        m_cpu.advance(m_overhead, cpu_class::kernel);
        if (uses_pio(frame)) {
            m_cpu.acquire(cpu_class::kernel);
            m_host.transfer(frame);
            m_cpu.release();
        } else {
            m_host.transfer(frame);
        }
    }

  private:
    // PIO when any transfer is below the DMA threshold (the CPU then services the FIFO).
    bool uses_pio(const spi::spi_payload& frame) const {
        if (m_dma_threshold == 0)
            return true;
        for (const auto& x : frame.xfers)
            if (x.len < m_dma_threshold)
                return true;
        return false;
    }

    host_cpu& m_cpu;
    spi::spi_host& m_host;
    unsigned m_cs;
    sc_core::sc_time m_overhead;
    size_t m_dma_threshold;
};

} // namespace nicsim::board
