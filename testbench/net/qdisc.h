// SPDX-License-Identifier: MIT
//
// pfifo_fast (net/sched/sch_generic.c): three FIFO bands chosen by skb->priority through
// prio2band, band 0 dequeued first; each band holds at most txqueuelen packets
// (pfifo_fast_init sizes each band's skb_array to dev->tx_queue_len) and a full band drops the
// new skb (qdisc_drop), which frees it - its destructor runs at once. A requeued skb (the driver
// said NETDEV_TX_BUSY) goes to the front, ahead of every band (dev_requeue_skb / q->gso_skb).
// Byte/packet backlog is tracked for reports (tc -s qdisc "backlog").
#pragma once

#include <array>
#include <cstdint>
#include <deque>

#include "testbench/net/skb.h"

namespace nicsim::net {

class pfifo_fast {
  public:
    explicit pfifo_fast(std::uint32_t limit_per_band) : m_limit(limit_per_band) {}

    // false: band full, the skb was dropped (and freed).
    bool enqueue(skb_ptr s);
    // nullptr when empty. The requeued skb comes first.
    skb_ptr dequeue();
    // Puts s back at the very head (ahead of every band and of earlier requeues): requeue the
    // rest of a split GSO skb last segment first.
    void requeue(skb_ptr s);

    std::uint32_t backlog_packets() const { return m_packets; } // skbs (tc's "p")
    std::uint64_t backlog_frames() const { return m_frames; }   // frames (GSO skbs count each)
    std::uint64_t backlog_bytes() const { return m_bytes; }
    std::uint64_t drops() const { return m_drops; }
    std::uint64_t requeues() const { return m_requeues; }
    bool empty() const { return m_packets == 0; }

    // prio2band of sch_generic.c for TC_PRIO_* 0..15.
    static unsigned band_of(std::uint32_t priority);

  private:
    std::uint32_t m_limit;
    std::array<std::deque<skb_ptr>, 3> m_bands;
    std::deque<skb_ptr> m_requeued; // q->gso_skb / skb_bad_txq: the rest of a split GSO skb
    std::uint32_t m_packets = 0;
    std::uint64_t m_frames = 0;
    std::uint64_t m_bytes = 0;
    std::uint64_t m_drops = 0;
    std::uint64_t m_requeues = 0;
};

} // namespace nicsim::net
