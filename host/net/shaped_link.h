// SPDX-License-Identifier: MIT
//
// One direction of a veth pair shaped with tc, as a netdev_port: a rate limiter that takes one
// skb at a time (the host stack's qdisc in front of it holds the backlog, as tbf's queue does)
// and a fixed one-way delay after it. This is use (b) of the netdev_port contract: the link holds
// the skb while its bits leave at `rate_bps` and frees it when the last bit has left - the
// moment the kernel's skb reaches the peer's ip_rcv (skb_orphan) after tbf dequeued it - so TSQ
// sees the bytes waiting in the shaper. The frame then arrives at `sink` delay later.
//
// The queue is stopped while an skb is being serialised and woken (wake()) when it is done; an
// xmit while stopped returns busy and leaves the skb to the caller (NETDEV_TX_BUSY).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include <systemc>

#include "host/net/netdev_port.h"

namespace nicsim::net {

class shaped_link : public sc_core::sc_module {
  public:
    using sink_fn = std::function<void(const std::uint8_t*, std::size_t)>;

    // rate_bps 0 = unshaped (no serialisation time).
    shaped_link(const sc_core::sc_module_name& nm, double rate_bps, sc_core::sc_time delay);

    netdev_port port();
    sink_fn sink;               // the peer's netif_rx
    std::function<void()> wake; // the sending stack's netif_wake_queue
    // Test hook: frame number `index` (0-based) is lost on the wire when it returns true (after
    // serialisation: the sender's budget still comes back).
    std::function<bool(std::uint64_t index, const std::vector<std::uint8_t>&)> drop;

    bool busy() const { return static_cast<bool>(m_cur); }
    std::uint64_t frames() const { return m_frames; }
    std::uint64_t dropped() const { return m_dropped; }
    std::uint64_t bytes() const { return m_bytes; }
    std::uint64_t busy_returns() const { return m_busy; }
    // Bytes of the skb being serialised (counted in tc's backlog: tbf still holds it).
    std::size_t bytes_in_shaper() const { return m_cur ? m_cur->len() : 0; }

  private:
    void serialise();
    void deliver();

    double m_rate;
    sc_core::sc_time m_delay;
    skb_ptr m_cur;
    std::deque<std::pair<sc_core::sc_time, std::vector<std::uint8_t>>> m_flight;
    sc_core::sc_event m_kick, m_landed;
    std::uint64_t m_frames = 0, m_bytes = 0, m_busy = 0, m_dropped = 0;
};

} // namespace nicsim::net
