// SPDX-License-Identifier: MIT
#include "host/net/rx_latency.h"

#include <algorithm>

namespace nicsim::net {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

rx_latency::rx_latency(const sc_core::sc_module_name& nm, std::uint64_t seed,
                       const latency_spec& irq_to_thread, const latency_spec& sched_wakeup,
                       sink_fn sink, bool softirq_in_caller, std::uint32_t max_backlog)
    : sc_core::sc_module(nm), m_softirq_in_caller(softirq_in_caller), m_max_backlog(max_backlog),
      m_irq(seed, std::string(name()) + ".irq_to_thread", irq_to_thread),
      m_wakeup(seed, std::string(name()) + ".sched_wakeup", sched_wakeup), m_sink(std::move(sink)) {
    SC_HAS_PROCESS(rx_latency);
    SC_THREAD(deliver);
}

void rx_latency::receive(const std::uint8_t* data, std::size_t len) {
    if (m_queue.size() > m_max_backlog) { // enqueue_to_backlog: qlen <= netdev_max_backlog
        ++m_drops;
        return;
    }
    sc_time due = sc_time_stamp();
    if (m_queue.empty() && !softirq_runs_in_caller(m_softirq_in_caller))
        due += m_irq.sample();
    due += m_wakeup.sample();
    if (!m_queue.empty())
        due = std::max(due, m_queue.back().due);
    m_queue.push_back({std::vector<std::uint8_t>(data, data + len), due});
    m_arrived.notify(sc_core::SC_ZERO_TIME);
}

void rx_latency::deliver() {
    for (;;) {
        while (m_queue.empty())
            wait(m_arrived);
        const sc_time due = m_queue.front().due;
        if (due > sc_time_stamp())
            wait(due - sc_time_stamp());
        pending p = std::move(m_queue.front());
        m_queue.pop_front();
        m_sink(p.bytes.data(), p.bytes.size());
    }
}

} // namespace nicsim::net
