// SPDX-License-Identifier: MIT
// The SPI core's own work per spi_sync, by its generation (kernel.spi_sync_fast_path), around
// the controller driver's CPU-cost policy (atmel_spi_port.h, bcm2835_spi_port.h, ...).
//
// Linux 6.0 and later: spi_sync runs a message in the caller's context without the message
// queue (__spi_transfer_message_noqueue: "Optimize spi_sync path",
// docs/sources.md#linux-host-latencies), idling the controller after it in the caller too. The
// core then adds nothing spi_host.per_message_overhead does not hold, and the board uses no
// port of this kind.
//
// Before 6.0 (drivers/spi/spi.c of 5.x): spi_sync also ran the message in the caller when the
// queue was idle, but spi_finalize_current_message() queued the message pump's work after every
// message, and the pump kthread, woken, ran __spi_pump_messages() to find the queue empty and
// idle the controller. Per message that is the pump thread switched in and out (two
// kernel.context_switch) and its queue work (spi_host.message_pump_overhead); the idling itself
// is per_message_overhead's on both generations. On a single core the thread, woken with CFS's
// sleeper credit, preempts a caller of the normal class as soon as the message ends, so that
// caller waits for it; a real-time caller (an IRQ thread, SCHED_FIFO) is not preempted by it,
// and it runs while that caller sleeps next: as with more cores, only the CPU is booked.
#pragma once

#include <functional>
#include <memory>

#include "kernel/include/nicsim/bus_attach.h"
#include "host/cpu/host_cpu.h"

namespace nicsim::board {

class spi_core_pump_port : public lx_bus::spi_port {
  public:
    // `pump_round`: what one run of the pump thread costs the CPU after a message.
    // `caller_is_rt`: whether the calling task is of the real-time class.
    spi_core_pump_port(host_cpu& cpu, std::unique_ptr<lx_bus::spi_port> inner,
                       sc_core::sc_time pump_round, std::function<bool()> caller_is_rt)
        : m_cpu(cpu), m_inner(std::move(inner)), m_pump_round(pump_round),
          m_caller_is_rt(std::move(caller_is_rt)) {}

    void transfer(spi::spi_payload& frame) override {
        // Runs on the caller's local time (bus/common/local_time.h), as the inner port does.
        m_inner->transfer(frame);
        if (m_cpu.cores() == 1 && !m_caller_is_rt())
            m_cpu.advance(m_pump_round, cpu_class::kernel);
        else
            m_cpu.charge(m_pump_round);
    }

  private:
    host_cpu& m_cpu;
    std::unique_ptr<lx_bus::spi_port> m_inner;
    sc_core::sc_time m_pump_round;
    std::function<bool()> m_caller_is_rt;
};

} // namespace nicsim::board
