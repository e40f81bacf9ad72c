// SPDX-License-Identifier: MIT
// A place in a model where a fault can be injected (docs/faults.md). The model owns one
// fault::point per fault kind it supports and asks it at every opportunity: each SPI message,
// each config frame, each frame on a link, each CLK_STATUS read. Who decides whether the fault
// hits that opportunity (a time, a count, a seeded probability, a window) is a fault::hook the
// composition attaches; the model knows nothing about it. A point without a hook never fires,
// so a model without faults behaves exactly as before (one null test per opportunity).
//
//   fires(t)   one opportunity at simulated time t: true = inject the fault into it.
//   active(t)  the fault's window is open at t (level faults: a held line, a dead link); does
//              not count as an opportunity.
//   window     level faults that must act when their window opens or closes even without
//              traffic (a PHY that reports link down, a line that sticks) register a reaction
//              (react_to_window); the hook calls it at those times.
//   effect     the model tells what the fault did ("CRC7 status returned"), for the report.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <systemc>

namespace nicsim::fault {

class hook {
  public:
    virtual ~hook() = default;
    virtual bool fires(const sc_core::sc_time& t) = 0;
    virtual bool active(const sc_core::sc_time& t) const = 0;
    virtual void on_window(std::function<void(bool open)> cb) = 0;
    virtual void effect(const sc_core::sc_time& t, const std::string& what) = 0;
};

class point {
  public:
    explicit point(const char* kind) : m_kind(kind) {}
    point(const point&) = delete;
    point& operator=(const point&) = delete;

    const char* kind() const { return m_kind; }
    void attach(hook* h) {
        m_hook = h;
        if (m_hook && m_window)
            m_hook->on_window(m_window);
    }
    bool attached() const { return m_hook != nullptr; }
    // What the model does when the window opens (true) and closes (false); passed to the hook
    // when one is attached. Set by the model at construction.
    void react_to_window(std::function<void(bool open)> cb) { m_window = std::move(cb); }

    bool fires(const sc_core::sc_time& t) { return m_hook && m_hook->fires(t); }
    bool active(const sc_core::sc_time& t) const { return m_hook && m_hook->active(t); }
    void effect(const sc_core::sc_time& t, const std::string& what) {
        if (m_hook)
            m_hook->effect(t, what);
    }

  private:
    const char* m_kind;
    hook* m_hook = nullptr;
    std::function<void(bool open)> m_window;
};

// The points a model (or several) offer, by kind name, for the composition to attach hooks to.
using point_list = std::vector<point*>;

// An interrupt pin between a chip's interrupt logic and the wire, with the two IRQ faults:
// irq_stuck holds the pin asserted while its window is open; irq_missed swallows one assertion
// (the pin stays inactive until the chip releases it and asserts again). `asserted` is the pin
// level that means "interrupt" (false for an active-low pin). drive(level) is the chip's output;
// the returned value, and every later call of `out`, is what the wire sees.
class irq_gate {
  public:
    irq_gate(bool asserted, bool initial) : m_asserted(asserted), m_chip(initial), m_pin(initial) {
        stuck.react_to_window([this](bool) { update(sc_core::sc_time_stamp()); });
    }

    point stuck{"irq_stuck"};
    point missed{"irq_missed"};
    std::function<void(bool level)> out; // drives the wire

    bool level() const { return m_pin; }

    void drive(bool level) {
        const sc_core::sc_time t = sc_core::sc_time_stamp();
        const bool asserting = level == m_asserted && m_chip != m_asserted;
        m_chip = level;
        if (asserting && !m_swallowed && missed.fires(t)) {
            m_swallowed = true;
            missed.effect(t, "interrupt assertion not delivered to the host");
        }
        if (level != m_asserted)
            m_swallowed = false;
        update(t);
    }

  private:
    void update(const sc_core::sc_time& t) {
        bool pin = m_swallowed ? !m_asserted : m_chip;
        if (stuck.active(t)) {
            if (pin != m_asserted)
                stuck.effect(t, "interrupt line held asserted");
            pin = m_asserted;
        }
        if (pin != m_pin) {
            m_pin = pin;
            if (out)
                out(pin);
        }
    }

    bool m_asserted;
    bool m_chip;
    bool m_pin;
    bool m_swallowed = false;
};

} // namespace nicsim::fault
