// SPDX-License-Identifier: MIT
#include "host/net/shaped_link.h"

namespace nicsim::net {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

shaped_link::shaped_link(const sc_core::sc_module_name& nm, double rate_bps, sc_time delay)
    : sc_core::sc_module(nm), m_rate(rate_bps), m_delay(delay) {
    SC_HAS_PROCESS(shaped_link);
    SC_THREAD(serialise);
    SC_THREAD(deliver);
}

netdev_port shaped_link::port() {
    netdev_port p;
    p.xmit = [this](skb_ptr& s) {
        if (m_cur) {
            ++m_busy;
            return netdev_tx::busy;
        }
        m_cur = std::move(s);
        m_kick.notify(sc_core::SC_ZERO_TIME);
        return netdev_tx::ok;
    };
    p.queue_stopped = [this] { return busy(); };
    return p;
}

void shaped_link::serialise() {
    for (;;) {
        while (!m_cur)
            wait(m_kick);
        if (m_rate > 0)
            wait(sc_time(static_cast<double>(m_cur->len()) * 8.0 / m_rate, sc_core::SC_SEC));
        const std::uint64_t index = m_frames++;
        m_bytes += m_cur->len();
        if (drop && drop(index, m_cur->data))
            ++m_dropped;
        else if (m_cur->is_gso()) // a GSO skb passed whole (port().gso): its frames arrive
            for (auto& f : m_cur->gso_frames)
                m_flight.emplace_back(sc_time_stamp() + m_delay, std::move(f));
        else
            m_flight.emplace_back(sc_time_stamp() + m_delay, std::move(m_cur->data));
        m_cur.reset(); // the last bit has left: kfree_skb -> destructor (tcp_wfree)
        m_landed.notify(sc_core::SC_ZERO_TIME);
        if (wake)
            wake();
    }
}

void shaped_link::deliver() {
    for (;;) {
        while (m_flight.empty())
            wait(m_landed);
        const sc_time due = m_flight.front().first;
        if (due > sc_time_stamp())
            wait(due - sc_time_stamp());
        auto f = std::move(m_flight.front().second);
        m_flight.pop_front();
        if (sink)
            sink(f.data(), f.size());
    }
}

} // namespace nicsim::net
