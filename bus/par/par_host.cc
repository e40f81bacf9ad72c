// SPDX-License-Identifier: MIT
#include "bus/par/par_host.h"

#include <sstream>
#include <stdexcept>

#include "bus/common/local_time.h"

namespace nicsim::par {

using sc_core::sc_time;

par_host::par_host(const sc_core::sc_module_name& name, const par_timing& timing,
                   uint64_t window_base, uint64_t window_size)
    : sc_module(name), par_out("par_out"), m_timing(timing), m_base(window_base),
      m_size(window_size) {
    m_timing.validate();
    if (window_size == 0)
        throw std::invalid_argument(std::string(this->name()) + ": window_size must be > 0");
}

void par_host::set_timing(const par_timing& t) {
    t.validate();
    m_timing = t;
}

uint16_t par_host::read16(uint64_t addr) {
    par_payload p;
    p.cmd = par_command::read;
    p.addr = addr;
    access(p);
    return p.data;
}

void par_host::write16(uint64_t addr, uint16_t value) {
    par_payload p;
    p.cmd = par_command::write;
    p.addr = addr;
    p.data = value;
    access(p);
}

void par_host::access(par_payload& p) {
    if (p.addr < m_base || p.addr - m_base >= m_size) {
        std::ostringstream os;
        os << name() << ": " << (p.is_read() ? "read" : "write") << " at bus address 0x" << std::hex
           << p.addr << " is outside the chip-select window [0x" << m_base << ", 0x"
           << m_base + m_size << ")";
        throw std::out_of_range(os.str());
    }
    if (p.lanes == 0 || (p.lanes & ~lanes_all))
        throw std::invalid_argument(std::string(name()) + ": byte-lane mask must be 1, 2 or 3");

    // One access at a time (the controller serialises its AXI port).
    while (m_busy) {
        local_time::sync();
        ++m_waiters;
        sc_core::wait(m_free);
        --m_waiters;
    }
    m_busy = true;

    // Decoupled (bus/common/local_time.h): the phases of an access advance the caller's local
    // time; the device answers at the strobe's trailing edge in that time.
    const sc_time now = local_time::now();
    if (m_ready_at > now) {
        m_stats.recovery_stall += m_ready_at - now;
        local_time::advance(m_ready_at - now);
    }
    const bool write = p.is_write();
    const sc_time start = local_time::now();
    local_time::advance(m_timing.to_strobe_end(write));

    const uint64_t bus_addr = p.addr;
    p.addr -= m_base;
    p.response = par_response::ok;
    p.error.clear();
    sc_time extra = sc_core::SC_ZERO_TIME;
    par_out->b_transport(p, extra);
    p.addr = bus_addr;
    if (extra > sc_core::SC_ZERO_TIME)
        local_time::advance(extra); // device wait states stretch the strobe
    local_time::advance(m_timing.cycles(m_timing.hold_cycles));

    const sc_time end = local_time::now();
    m_stats.busy += end - start - m_timing.cycles(m_timing.issue_cycles);
    m_ready_at = end + m_timing.cycles(m_timing.recovery_cycles);
    ++(write ? m_stats.writes : m_stats.reads);
    m_busy = false;
    if (m_waiters) {
        local_time::sync();
        m_free.notify(sc_core::SC_ZERO_TIME);
    }
    if (!m_observers.empty()) {
        par_access_times t;
        t.cs_assert = start + m_timing.cycles(m_timing.issue_cycles);
        t.strobe_start =
            start + m_timing.cycles(m_timing.issue_cycles + m_timing.addr_setup_cycles);
        t.strobe_end = start + m_timing.to_strobe_end(write) + extra;
        t.cs_deassert = end;
        for (par_observer* o : m_observers)
            o->on_access(p, t);
    }

    if (p.response != par_response::ok) {
        std::ostringstream os;
        os << name() << ": device rejected " << p << ": "
           << (p.error.empty() ? "no details" : p.error);
        throw std::runtime_error(os.str());
    }
}

} // namespace nicsim::par
