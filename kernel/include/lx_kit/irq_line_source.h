// SPDX-License-Identifier: MIT
// Adapts the bus interrupt wire (bus/irq/irq_line.h) to the lx_kit interrupt source, so the
// testbench binds a chip's IRQ pin to the irq number the driver requests:
//
//     nicsim::lx_kit::irq_line_source src(chip_irq_line);
//     nicsim::lx_kit::register_irq(spi_device.irq, src);
//
// Header-only: users link nicsim_bus_irq themselves. Uses the line's edge counters, so pulses
// shorter than a delta cycle still latch an edge trigger.
#pragma once

#include <bus/irq/irq_line.h>
#include <lx_kit/runtime.h>

namespace nicsim::lx_kit {

class irq_line_source : public irq_source {
  public:
    explicit irq_line_source(const irq_line& line) : line_(line) {}
    bool level() const override { return line_.level(); }
    const sc_core::sc_event& changed() const override { return line_.changed_event(); }
    bool counts_edges() const override { return true; }
    uint64_t rising_edges() const override { return line_.posedges(); }
    uint64_t falling_edges() const override { return line_.negedges(); }

  private:
    const irq_line& line_;
};

} // namespace nicsim::lx_kit
