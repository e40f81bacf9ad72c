// SPDX-License-Identifier: MIT
#include "bus/par/par_host.h"

#include <sstream>
#include <stdexcept>

#include "bus/common/local_time.h"

namespace nicsim::par {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

par_host::par_host(const sc_core::sc_module_name& name, const par_timing& timing,
                   uint64_t window_base, uint64_t window_size)
    : sc_module(name), par_out("par_out"), m_base(window_base), m_size(window_size) {
    set_timing(timing);
    if (window_size == 0)
        throw std::invalid_argument(std::string(this->name()) + ": window_size must be > 0");
}

void par_host::set_timing(const par_timing& t) {
    t.validate();
    m_timing = t;
    // The same compositions as par_timing's helpers, so the rounding is the same.
    m_t.issue = t.cycles(t.issue_cycles);
    m_t.to_strobe_start = t.cycles(t.issue_cycles + t.addr_setup_cycles);
    m_t.to_strobe_end[0] = t.to_strobe_end(false);
    m_t.to_strobe_end[1] = t.to_strobe_end(true);
    m_t.hold = t.cycles(t.hold_cycles);
    m_t.recovery = t.cycles(t.recovery_cycles);
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

void par_host::check(const par_payload& p) const {
    if (p.addr < m_base || p.addr - m_base >= m_size) {
        std::ostringstream os;
        os << name() << ": " << (p.is_read() ? "read" : "write") << " at bus address 0x" << std::hex
           << p.addr << " is outside the chip-select window [0x" << m_base << ", 0x"
           << m_base + m_size << ")";
        throw std::out_of_range(os.str());
    }
    if (p.lanes == 0 || (p.lanes & ~lanes_all))
        throw std::invalid_argument(std::string(name()) + ": byte-lane mask must be 1, 2 or 3");
}

void par_host::access(par_payload& p) {
    check(p);

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
    const sc_time start = local_time::now();
    local_time::advance(m_t.to_strobe_end[p.is_write()]);
    const sc_time extra = transport(p);
    if (extra > SC_ZERO_TIME)
        local_time::advance(extra); // device wait states stretch the strobe
    local_time::advance(m_t.hold);
    complete(p, start, local_time::now(), extra);
}

sc_time par_host::transport(par_payload& p) {
    const uint64_t bus_addr = p.addr;
    p.addr -= m_base;
    p.response = par_response::ok;
    p.error.clear();
    sc_time extra = SC_ZERO_TIME;
    par_out->b_transport(p, extra);
    p.addr = bus_addr;
    return extra;
}

// After the hold phase: statistics, the bus free again, observers, the device's verdict.
void par_host::complete(par_payload& p, const sc_time& start, const sc_time& end,
                        const sc_time& extra) {
    const bool write = p.is_write();
    m_stats.busy += end - start - m_t.issue;
    m_ready_at = end + m_t.recovery;
    ++(write ? m_stats.writes : m_stats.reads);
    m_busy = false;
    if (m_waiters) {
        local_time::sync();
        m_free.notify(SC_ZERO_TIME);
    }
    if (!m_observers.empty()) {
        par_access_times t;
        t.cs_assert = start + m_t.issue;
        t.strobe_start = start + m_t.to_strobe_start;
        t.strobe_end = start + m_t.to_strobe_end[write] + extra;
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

void par_host::read16_rep(uint64_t addr, uint16_t* out, size_t n) {
    for (size_t i = 0; i < n;)
        i += burst_read16(addr, out + i, n - i);
}

void par_host::write16_rep(uint64_t addr, const uint16_t* in, size_t n) {
    for (size_t i = 0; i < n;)
        i += burst_write16(addr, in + i, n - i);
}

size_t par_host::burst_read16(uint64_t addr, uint16_t* out, size_t n) {
    par_payload p;
    p.cmd = par_command::read;
    p.addr = addr;
    return burst(p, nullptr, out, n);
}

size_t par_host::burst_write16(uint64_t addr, const uint16_t* in, size_t n) {
    par_payload p;
    p.cmd = par_command::write;
    p.addr = addr;
    return burst(p, in, nullptr, n);
}

// Word by word the same as access(): recovery stall, strobe, device, hold, complete(). What a
// burst saves is the local-time decision per phase: one room() covers every word that ends
// before anything else can run, so those words only add their phases to the offset, and the
// device still sees local_time::now() at each strobe end. It stops after a word whose device
// added wait states or synced (the room is then void); that word finishes as access() does.
size_t par_host::burst(par_payload& p, const uint16_t* in, uint16_t* out, size_t n) {
    if (n == 0)
        return 0;
    auto one = [&] {
        if (in)
            p.data = in[0];
        access(p);
        if (out)
            out[0] = p.data;
        return size_t(1);
    };
    check(p);
    if (n == 1 || m_busy || m_waiters)
        return one();
    const bool write = p.is_write();
    const sc_time word = m_t.to_strobe_end[write] + m_t.hold;
    const sc_time step = m_t.recovery + word; // every word after the first waits out recovery
    sc_time t = local_time::now();
    const sc_time stall0 = m_ready_at > t ? m_ready_at - t : SC_ZERO_TIME;
    const sc_time room = local_time::room();
    if (room < stall0 + word)
        return one();
    const size_t fit = 1 + size_t((room - stall0 - word).value() / step.value());
    const size_t k = fit < n ? fit : n;
    const unsigned long long epoch = local_time::epoch();

    m_busy = true;
    for (size_t i = 0; i < k; ++i) {
        const sc_time stall = i == 0 ? stall0 : m_t.recovery;
        if (stall > SC_ZERO_TIME)
            m_stats.recovery_stall += stall;
        const sc_time start = t + stall;
        local_time::advance_in_room(stall + m_t.to_strobe_end[write]);
        if (in)
            p.data = in[i];
        const sc_time extra = transport(p);
        if (extra > SC_ZERO_TIME || local_time::epoch() != epoch) {
            if (extra > SC_ZERO_TIME)
                local_time::advance(extra);
            local_time::advance(m_t.hold);
            complete(p, start, local_time::now(), extra);
            if (out)
                out[i] = p.data;
            return i + 1;
        }
        local_time::advance_in_room(m_t.hold);
        t = start + word;
        complete(p, start, t, extra);
        m_busy = true; // complete() freed the bus; nobody can have asked for it meanwhile
        if (out)
            out[i] = p.data;
        // The words after the first that the device can answer together: each has the phases,
        // times and statistics complete() gives it above, in closed form (no observer needs
        // their times one by one, and nobody can have asked for the bus meanwhile).
        if (i + 1 < k && m_observers.empty()) {
            if (par_target_socket* dev = m_words) {
                p.addr -= m_base;
                const size_t w = dev->transport_words(p, in ? in + i + 1 : nullptr,
                                                      out ? out + i + 1 : nullptr, k - i - 1);
                p.addr += m_base;
                if (w > 0) {
                    const auto times = [w](const sc_time& x) {
                        return sc_time::from_value(x.value() * w);
                    };
                    if (m_t.recovery > SC_ZERO_TIME)
                        m_stats.recovery_stall += times(m_t.recovery);
                    local_time::advance_in_room(times(step));
                    t += times(step);
                    m_stats.busy += times(word - m_t.issue);
                    m_ready_at = t + m_t.recovery;
                    (write ? m_stats.writes : m_stats.reads) += w;
                    i += w;
                    if (out)
                        p.data = out[i];
                }
            }
        }
    }
    m_busy = false;
    return k;
}

void par_host::end_of_elaboration() {
    m_words = dynamic_cast<par_target_socket*>(par_out.operator->());
}

} // namespace nicsim::par
