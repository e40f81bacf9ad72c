// SPDX-License-Identifier: MIT
// spi_host.cpu_cost: bcm2835 — spi_sync as a bcm2835-style controller driver (spi-bcm2835.c,
// Linux 6.1) runs it on the board's CPU: the per-message software cost runs on a core; a
// transfer whose estimated time (9 SCK cycles per byte, as bcm2835_spi_transfer_one estimates
// it) is within spi_host.polling_limit is busy-polled, keeping a core busy for its whole bus
// time; longer ones go by DMA (len >= dma_threshold; the spi_host schedule adds dma_setup) or the
// controller interrupt, leave the CPU free while they shift, and wake the waiting thread through
// complete() when done (kernel.sched_wakeup_latency).
#pragma once

#include "bus/common/local_time.h"
#include "bus/spi/spi_host.h"
#include "kernel/include/nicsim/bus_attach.h"
#include "host/cpu/host_cpu.h"

namespace nicsim::board {

class bcm2835_spi_port : public lx_bus::spi_port {
  public:
    // `host` must be configured with per_message_overhead = 0: this port charges it.
    bcm2835_spi_port(host_cpu& cpu, spi::spi_host& host, unsigned cs,
                     sc_core::sc_time per_message_overhead, sc_core::sc_time polling_limit,
                     sc_core::sc_time wakeup)
        : m_cpu(cpu), m_host(host), m_cs(cs), m_overhead(per_message_overhead),
          m_polling_limit_s(polling_limit.to_seconds()), m_wakeup(wakeup) {
        // Two schedules of the same controller: a fully polled message runs its software part
        // and its wire time on one core without a break, so the host's own per-message
        // overhead stage carries it (one wait less per message: this is the hot path); a
        // message with a DMA/IRQ transfer pays the overhead on the core first, then shifts
        // with the core free.
        m_polled = host.timing();
        m_polled.per_message_overhead = m_overhead;
        m_waited = host.timing();
        m_waited.per_message_overhead = sc_core::SC_ZERO_TIME;
    }

    void transfer(spi::spi_payload& frame) override {
        using sc_core::sc_time;
        // Runs on the caller's local time (bus/common/local_time.h): every step below advances
        // it, locally while no other process can run in between.
        frame.cs = m_cs;
        // Plain seconds here, one sc_time at the end: this runs for every spi_sync.
        unsigned waited = 0;
        double polled_s = 0;
        for (const auto& x : frame.xfers) {
            const double hz = x.speed_hz ? x.speed_hz : frame.speed_hz;
            if (polled_transfer(x.len, hz))
                polled_s += 8.0 * double(x.len) / hz;
            else
                ++waited;
        }
        // The calling thread runs the controller driver's software path on a core (kernel
        // class). spi_sync callers of one controller are serialised (the bus lock of the SPI
        // core), so switching the host's schedule per message cannot affect another caller.
        m_cpu.acquire(cpu_class::kernel);
        if (waited == 0) {
            // Every transfer polled: the core keeps spinning until the frame is done.
            m_host.set_timing(m_polled);
            m_host.transfer(frame);
            m_cpu.release();
            return;
        }
        if (m_overhead != sc_core::SC_ZERO_TIME)
            local_time::advance(m_overhead);
        m_cpu.release();
        m_host.set_timing(m_waited);
        m_host.transfer(frame);
        if (polled_s > 0) // the short polled transfers of a mixed message
            m_cpu.charge(sc_time(polled_s, sc_core::SC_SEC));
        if (m_wakeup != sc_core::SC_ZERO_TIME)
            local_time::advance(m_wakeup * double(waited));
    }

  private:
    // Estimated wire time (9 SCK cycles a byte) within the polling limit.
    bool polled_transfer(size_t len, double hz) const {
        if (m_polling_limit_s <= 0)
            return false;
        return 9.0 * double(len) / hz <= m_polling_limit_s;
    }

    host_cpu& m_cpu;
    spi::spi_host& m_host;
    unsigned m_cs;
    sc_core::sc_time m_overhead;
    double m_polling_limit_s;
    sc_core::sc_time m_wakeup;
    spi::spi_host_timing m_polled, m_waited;
};

} // namespace nicsim::board
