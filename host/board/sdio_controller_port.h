// SPDX-License-Identifier: MIT
// The SDIO host controller as the driver emulation's sdio_* functions see it on a board: each
// MMC request's software overhead (mmc_wait_for_req, controller driver) runs on a CPU core,
// a PIO data phase keeps the core busy for its bus time, DMA and CMD52 leave it free while the
// bus runs (the caller sleeps in wait_for_completion). The card's in-band interrupt reaches the
// MMC core's interrupt path after the profile's irq_latency. With runtime PM the first claim of
// an idle controller pays its resume on the claiming thread's core, and a card interrupt of a
// suspended wake-IRQ controller waits for the resume (sdio_runtime_pm.h).
#pragma once

#include <stdexcept>

#include "bus/common/local_time.h"
#include "bus/sdio/sdio_host.h"
#include "kernel/include/lx_kit/lx_kit.h"
#include "kernel/include/nicsim/bus_attach.h"
#include "host/board/sdio_runtime_pm.h"
#include "host/cpu/host_cpu.h"

namespace nicsim::board {

class sdio_controller_port : public lx_bus::sdio_host_if {
  public:
    // `host` must be configured with per_request_overhead = 0: this port charges it on the CPU.
    sdio_controller_port(host_cpu& cpu, sdio::sdio_host& host,
                         sc_core::sc_time per_request_overhead, size_t dma_threshold_bytes,
                         sc_core::sc_time irq_latency, const sdio_runtime_pm_config& pm = {})
        : m_cpu(cpu), m_host(host), m_overhead(per_request_overhead),
          m_dma_threshold(dma_threshold_bytes), m_irq_latency(irq_latency), m_pm(pm) {}

    // mmc_claim_host / mmc_release_host, nested per holder (sdio.c serialises the holders):
    // the outermost pair takes and drops the runtime-PM reference.
    void claim() override {
        if (m_claims++ == 0) {
            const sc_core::sc_time resume = m_pm.get(local_time::now());
            if (resume != sc_core::SC_ZERO_TIME)
                m_cpu.advance(resume, cpu_class::kernel); // runtime_resume on the caller
        }
    }
    void release() override {
        if (m_claims > 0 && --m_claims == 0)
            m_pm.put(local_time::now());
    }
    void enable_sdio_irq(bool on) override { m_pm.enable_sdio_irq(on); }

    // Commands run on the caller's local time (bus/common/local_time.h).
    int cmd52(unsigned fn, bool write, unsigned addr, uint8_t& data) override {
        m_cpu.advance(m_overhead, cpu_class::kernel);
        return guarded([&] { return m_host.cmd52(fn, write, addr, data); });
    }

    int cmd53(unsigned fn, bool write, unsigned addr, bool incr_addr, bool block_mode,
              unsigned count, unsigned blksz, uint8_t* buf) override {
        m_cpu.advance(m_overhead, cpu_class::kernel);
        const size_t bytes = block_mode ? size_t(count) * blksz : count;
        const bool pio = m_dma_threshold == 0 || bytes < m_dma_threshold;
        if (pio)
            m_cpu.acquire(cpu_class::kernel);
        const int ret = guarded([&] {
            return m_host.cmd53(fn, write, addr, incr_addr, block_mode, count, blksz, buf);
        });
        if (pio)
            m_cpu.release();
        return ret;
    }

    void wait_irq() override {
        local_time::sync();
        m_host.wait_card_irq();
        // A suspended controller hears the card through its wake-up interrupt and resumes
        // before its own interrupt path runs.
        const sc_core::sc_time resume = m_pm.card_irq(local_time::now());
        if (resume != sc_core::SC_ZERO_TIME) {
            m_cpu.advance(resume, cpu_class::kernel);
            local_time::sync();
        }
        if (m_irq_latency != sc_core::SC_ZERO_TIME)
            sc_core::wait(m_irq_latency);
    }

  private:
    // A command the bus cannot carry (block count 0, a 513-byte byte-mode transfer, ...) is a
    // driver/emulation bug, not a card answer: the run stops naming the command.
    template <class F> int guarded(F&& f) {
        try {
            return f();
        } catch (const std::invalid_argument& e) {
            lx_kit_abort("SDIO host %s: %s", m_host.name(), e.what());
        }
    }

    host_cpu& m_cpu;
    sdio::sdio_host& m_host;
    sc_core::sc_time m_overhead;
    size_t m_dma_threshold;
    sc_core::sc_time m_irq_latency;
    sdio_runtime_pm m_pm;
    unsigned m_claims = 0;
};

} // namespace nicsim::board
