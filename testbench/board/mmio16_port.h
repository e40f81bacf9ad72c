// SPDX-License-Identifier: MIT
// ioread16/iowrite16 on an EIM-class external bus: the CPU core stalls on each uncached device
// access until the bus cycle completes (assumption: no posted writes), so every access holds a
// core of the board's CPU for its bus time.
#pragma once

#include "bus/par/par_host.h"
#include "driver/include/nicsim/bus_attach.h"
#include "testbench/host/host_cpu.h"

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

  private:
    host_cpu& m_cpu;
    par::par_host& m_bus;
};

} // namespace nicsim::board
