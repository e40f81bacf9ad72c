// SPDX-License-Identifier: MIT
#include "host/cpu/host_cpu.h"

#include <algorithm>
#include <stdexcept>

#include "bus/common/local_time.h"

namespace nicsim {

host_cpu::host_cpu(sc_core::sc_module_name name, unsigned cores)
    : sc_module(name), m_cores(cores), m_free(cores) {
    if (cores == 0)
        throw std::invalid_argument(std::string(this->name()) + ": a host needs at least one core");
}

void host_cpu::run(const sc_core::sc_time& work, cpu_class cls) {
    if (work == sc_core::SC_ZERO_TIME)
        return;
    take_core(cls);
    local_time::sync();
    wait(work);
    m_busy += work;
    give_core();
}

void host_cpu::advance(const sc_core::sc_time& work, cpu_class cls) {
    if (work == sc_core::SC_ZERO_TIME)
        return;
    take_core(cls);
    local_time::advance(work); // decoupled when nobody can ask for the core meanwhile
    m_busy += work;
    give_core();
}

void host_cpu::acquire(cpu_class cls) {
    take_core(cls);
    m_held_since.push_back(local_time::now());
}

void host_cpu::release() {
    if (m_held_since.empty())
        throw std::logic_error(std::string(name()) + ": release() without acquire()");
    // Cores are interchangeable: book the longest-held interval (FIFO) as busy time.
    m_busy += local_time::now() - m_held_since.front();
    m_held_since.pop_front();
    give_core();
}

void host_cpu::take_core(cpu_class cls) {
    // Waiters are served kernel class first, then in arrival order within a class.
    const waiter me{cls == cpu_class::kernel ? 0 : 1, m_next_ticket++};
    if (m_free > 0 && m_waiting.empty()) { // the common case: no competition, no event
        --m_free;
        return;
    }
    local_time::sync();
    const sc_core::sc_time asked = sc_core::sc_time_stamp();
    if (m_free_events.empty()) {
        m_events.push_back(std::make_unique<sc_core::sc_event>());
        m_free_events.push_back(m_events.back().get());
    }
    sc_core::sc_event* ev = m_free_events.back();
    m_free_events.pop_back();
    // Tickets only grow, so a new waiter goes after every waiter of its class.
    const auto pos =
        std::upper_bound(m_waiting.begin(), m_waiting.end(), me,
                         [](const waiter& w, const std::pair<waiter, sc_core::sc_event*>& e) {
                             return w < e.first;
                         });
    m_waiting.insert(pos, {me, ev});
    while (m_free == 0 || m_waiting.begin()->first != me)
        wait(*ev);
    m_waiting.erase(m_waiting.begin());
    m_free_events.push_back(ev);
    --m_free;
    m_wait += sc_core::sc_time_stamp() - asked;
    wake_front(); // another core may still be free for the next waiter
}

void host_cpu::give_core() {
    ++m_free;
    if (!m_waiting.empty()) { // a notification nobody waits for would only cost a delta cycle
        local_time::sync();
        wake_front();
    }
}

void host_cpu::wake_front() {
    if (m_free > 0 && !m_waiting.empty())
        m_waiting.begin()->second->notify(sc_core::SC_ZERO_TIME);
}

double host_cpu::busy_share(const sc_core::sc_time& elapsed) const {
    if (elapsed == sc_core::SC_ZERO_TIME)
        return 0.0;
    return m_busy.to_seconds() / (elapsed.to_seconds() * m_cores);
}

} // namespace nicsim
