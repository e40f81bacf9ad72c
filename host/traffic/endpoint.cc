// SPDX-License-Identifier: MIT
#include "host/traffic/endpoint.h"

#include <stdexcept>

namespace nicsim::traffic {

endpoint::endpoint(const sc_core::sc_module_name& nm, const endpoint_addr& self)
    : sc_core::sc_module(nm), m_self(self) {
    m_inbox_or_timer |= m_inbox_event;
    m_inbox_or_timer |= m_timer;
}

void endpoint::bind(port p) {
    m_port = std::move(p);
}

void endpoint::require_send() const {
    if (!m_port.send)
        throw std::logic_error(std::string("traffic endpoint '") + name() +
                               "': not bound to a port with a send function before it started");
}

bool endpoint::receive(const std::uint8_t* data, std::size_t len) {
    if (m_tap)
        m_tap(false, data, len);
    const auto f = frame::parse(data, len, false); // checksums: in the thread
    const bool for_us = f.ok && f.ethertype == frame::ethertype_ipv4 &&
                        (f.eth_dst == m_self.mac || f.eth_dst.is_multicast()) &&
                        f.ip_dst == m_self.ip && accepts(f);
    if (!for_us) {
        ++m_ignored;
        return false;
    }
    if (!m_rcvbuf.admit(len))
        return true; // ours, but the socket is full: dropped and counted, as UDP does
    ++m_accepted;
    m_last_accepted = sc_core::sc_time_stamp();
    m_inbox.push_back(
        inbound{std::vector<std::uint8_t>(data, data + len), sc_core::sc_time_stamp()});
    m_inbox_event.notify(sc_core::SC_ZERO_TIME);
    return true;
}

const endpoint::inbound& endpoint::pop_inbox() {
    m_current = std::move(m_inbox.front());
    m_inbox.pop_front();
    m_rcvbuf.uncharge(m_current.bytes.size());
    return m_current;
}

void endpoint::wait_inbox(const sc_core::sc_time& timeout) {
    if (!m_inbox.empty())
        return;
    if (timeout == sc_core::SC_ZERO_TIME) {
        sc_core::wait(timeout, m_inbox_event); // one delta cycle
        return;
    }
    // Not wait(timeout, m_inbox_event): SystemC keeps a timeout that lost to the event in its
    // timed queue until it would have expired, and flows re-arm their RTO / delayed-ACK wait for
    // every frame, so the queue would fill with thousands of dead entries that every timed wait
    // in the simulation pays for. One timer event per endpoint has at most one pending entry. A
    // pending timer notification from an earlier, closer deadline may wake this loop before
    // `deadline`; it then waits again, so the caller sees the same return time either way.
    const sc_core::sc_time deadline = sc_core::sc_time_stamp() + timeout;
    while (m_inbox.empty()) {
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        if (now >= deadline)
            return;
        m_timer.notify(deadline - now);
        sc_core::wait(m_inbox_or_timer);
    }
}

void endpoint::wait_inbox() {
    if (m_inbox.empty())
        sc_core::wait(m_inbox_event);
}

void endpoint::transmit(std::vector<std::uint8_t> f, std::size_t payload_len) {
    if (!m_port.send)
        throw std::logic_error(std::string("traffic endpoint '") + name() +
                               "': sending before bind() attached a port");
    // Held in the endpoint while the CPU cost is paid (a wait), not on this thread's stack: a
    // run that ends there must not hide the frame from LeakSanitizer.
    m_sending = std::move(f);
    if (m_port.cpu_cost) {
        const auto t = m_port.cost.per_tx_frame +
                       m_port.cost.per_payload_byte * static_cast<double>(payload_len);
        if (t > sc_core::SC_ZERO_TIME)
            m_port.cpu_cost(t);
    }
    if (!m_tap) {
        m_port.send(std::move(m_sending));
        return;
    }
    m_sent_copy = m_sending; // the port may consume it
    m_port.send(std::move(m_sending));
    m_tap(true, m_sent_copy.data(), m_sent_copy.size());
}

void endpoint::charge_rx(std::size_t payload_len) {
    if (!m_port.cpu_cost)
        return;
    const auto t =
        m_port.cost.per_rx_frame + m_port.cost.per_payload_byte * static_cast<double>(payload_len);
    if (t > sc_core::SC_ZERO_TIME)
        m_port.cpu_cost(t);
}

unsigned window_scale_for(std::uint64_t window) {
    unsigned s = 0;
    while ((window >> s) > 0xffff && s < 14)
        ++s;
    return s;
}

} // namespace nicsim::traffic
