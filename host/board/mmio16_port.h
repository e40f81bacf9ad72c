// SPDX-License-Identifier: MIT
// ioread16/iowrite16 on an EIM-class external bus: the CPU core stalls on each uncached device
// access until the bus cycle completes (assumption: no posted writes), so every access holds a
// core of the board's CPU for its bus time. The _rep variants (FIFO loops) hold the core across
// the words of one bus burst: the same busy time, since the words follow each other without a
// gap, and nobody can ask for the core while a burst runs (par_host::burst_read16). Where
// another thread already waits for a core the core is handed over after every word, as the
// driver's word loop would.
#pragma once

#include "bus/par/par_host.h"
#include "kernel/include/nicsim/bus_attach.h"
#include "host/cpu/host_cpu.h"

namespace nicsim::board {

class mmio16_port : public lx_bus::mmio16_bus_if {
  public:
    mmio16_port(host_cpu& cpu, par::par_host& bus) : m_cpu(cpu), m_bus(bus) {}
    uint16_t read16(uint64_t a) override {
        m_cpu.acquire(cpu_class::kernel);
        const uint16_t v = m_bus.read16(a);
        m_cpu.release();
        return v;
    }
    void write16(uint64_t a, uint16_t v) override {
        m_cpu.acquire(cpu_class::kernel);
        m_bus.write16(a, v);
        m_cpu.release();
    }
    void read16_rep(uint64_t a, uint16_t* out, size_t n) override {
        while (n) {
            m_cpu.acquire(cpu_class::kernel);
            const size_t k =
                m_cpu.contended() ? (*out = m_bus.read16(a), 1) : m_bus.burst_read16(a, out, n);
            m_cpu.release();
            out += k;
            n -= k;
        }
    }
    void write16_rep(uint64_t a, const uint16_t* in, size_t n) override {
        while (n) {
            m_cpu.acquire(cpu_class::kernel);
            const size_t k =
                m_cpu.contended() ? (m_bus.write16(a, *in), 1) : m_bus.burst_write16(a, in, n);
            m_cpu.release();
            in += k;
            n -= k;
        }
    }

  private:
    host_cpu& m_cpu;
    par::par_host& m_bus;
};

} // namespace nicsim::board
