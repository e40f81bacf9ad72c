// SPDX-License-Identifier: MIT
//
// A device's root qdisc (host.net.qdisc): what dev_queue_xmit enqueues into and qdisc_run
// dequeues from. The requeue slot in front of it is the generic layer's (dev_requeue_skb keeps
// the skb in q->gso_skb, dequeued before the qdisc is asked again), so it lives in the base.
// Backlog is tracked for reports (tc -s qdisc "backlog"). fq_codel: host/net/fq_codel.h.
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
#include <memory>

#include "host/net/skb.h"

namespace nicsim::net {
struct net_settings;
}

namespace nicsim::net {

class qdisc {
  public:
    virtual ~qdisc() = default;

    // false: the skb was dropped (and freed, its destructor run) instead of queued.
    virtual bool enqueue(skb_ptr s) = 0;
    // nullptr when empty. The requeued skbs come first.
    skb_ptr dequeue();
    // Puts s back at the very head (ahead of the qdisc and of earlier requeues): requeue the
    // rest of a split GSO skb last segment first.
    void requeue(skb_ptr s);

    std::uint32_t backlog_packets() const { return m_packets; } // skbs (tc's "p")
    std::uint64_t backlog_frames() const { return m_frames; }   // frames (GSO skbs count each)
    std::uint64_t backlog_bytes() const { return m_bytes; }
    std::uint64_t drops() const { return m_drops; }
    std::uint64_t requeues() const { return m_requeues; }
    bool empty() const { return m_packets == 0; }

  protected:
    // The qdisc's own dequeue (Qdisc_ops.dequeue); nullptr when it has nothing to send.
    virtual skb_ptr dequeue_own() = 0;
    // Backlog bookkeeping for what the qdisc holds.
    void count_in(const skb& s) {
        ++m_packets;
        m_frames += s.segs();
        m_bytes += s.len();
    }
    void count_out(const skb& s) {
        --m_packets;
        m_frames -= s.segs();
        m_bytes -= s.len();
    }
    void count_drop() { ++m_drops; }

  private:
    std::deque<skb_ptr> m_requeued; // q->gso_skb / skb_bad_txq: the rest of a split GSO skb
    std::uint32_t m_packets = 0;
    std::uint64_t m_frames = 0;
    std::uint64_t m_bytes = 0;
    std::uint64_t m_drops = 0;
    std::uint64_t m_requeues = 0;
};

class pfifo_fast final : public qdisc {
  public:
    explicit pfifo_fast(std::uint32_t limit_per_band) : m_limit(limit_per_band) {}

    bool enqueue(skb_ptr s) override;

    // prio2band of sch_generic.c for TC_PRIO_* 0..15.
    static unsigned band_of(std::uint32_t priority);

  private:
    skb_ptr dequeue_own() override;

    std::uint32_t m_limit;
    std::array<std::deque<skb_ptr>, 3> m_bands;
};

// The qdisc host.net.qdisc names: pfifo_fast with txqueuelen packets per band, or fq_codel with
// its defaults, timed by the running process's local time.
std::unique_ptr<qdisc> make_qdisc(const net_settings& n);

} // namespace nicsim::net
