// SPDX-License-Identifier: MIT
//
// An interrupt wire between a chip model (which drives it) and the host (whose interrupt
// controller / driver emulation consumes it). The line only carries a level: whether the chip's
// interrupt is active-low or active-high is a property of the consumer (Linux: the IRQ trigger
// type), not of the wire.
//
// Delta-cycle behaviour: set_level() changes level() at once, so any process that reads level()
// after the call (in the same delta cycle or later) sees the new level; posedge_event(),
// negedge_event() and changed_event() are notified for the next delta cycle
// (notify(SC_ZERO_TIME)), so a consumer that reaches its wait() later in the current evaluation
// phase still wakes. set_level() may be called from SC_METHODs, SC_THREADs or outside any process
// (elaboration, tests). If the level toggles more than once in one delta cycle, the edge counters
// and observers see every change but each event fires once and a woken consumer sees the final
// level (a glitch shorter than a delta cycle is not a pulse a real interrupt controller could
// latch reliably either).
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

namespace nicsim {

class irq_line;

// Trace hook (VCD/timeline writers, statistics), called synchronously on every level change.
class irq_observer {
  public:
    virtual ~irq_observer() = default;
    virtual void on_irq(const irq_line& line, bool level, const sc_core::sc_time& t) = 0;
};

class irq_line : public sc_core::sc_object, public sc_core::sc_interface {
  public:
    explicit irq_line(const char* name, bool initial_level = false);

    const char* kind() const override { return "nicsim::irq_line"; }

    void set_level(bool high);
    bool level() const { return m_level; }

    const sc_core::sc_event& posedge_event() const { return m_posedge; }
    const sc_core::sc_event& negedge_event() const { return m_negedge; }
    const sc_core::sc_event& changed_event() const { return m_changed; }
    // Makes `sensitive << line` mean "on every change".
    const sc_core::sc_event& default_event() const override { return m_changed; }

    uint64_t posedges() const { return m_posedges; }
    uint64_t negedges() const { return m_negedges; }
    // Simulated time of the last level change (zero if it never changed).
    const sc_core::sc_time& last_change() const { return m_last_change; }

    // The line does not own observers; they are called in the order attached.
    void add_observer(irq_observer& obs) { m_observers.push_back(&obs); }

  private:
    bool m_level;
    uint64_t m_posedges = 0;
    uint64_t m_negedges = 0;
    sc_core::sc_time m_last_change = sc_core::SC_ZERO_TIME;
    sc_core::sc_event m_posedge;
    sc_core::sc_event m_negedge;
    sc_core::sc_event m_changed;
    std::vector<irq_observer*> m_observers;
};

} // namespace nicsim
