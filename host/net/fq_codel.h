// SPDX-License-Identifier: MIT
//
// fq_codel (net/sched/sch_fq_codel.c, include/net/codel_impl.h of Linux 6.1), with the
// defaults of `tc qdisc add dev X root fq_codel`: packets are hashed by flow into 1024 queues,
// served by deficit round robin (quantum = one MTU-sized frame, new flows before old ones), and
// each queue runs CoDel: once a packet's sojourn time has stayed above `target` (5 ms) for
// `interval` (100 ms), packets are dropped at dequeue, the next drop interval/sqrt(count) later,
// until the sojourn time falls below target. Above `limit` packets (10240) or `memory_limit`
// (32 MiB of truesize) enqueue drops half of the fattest flow's backlog (at most 64 packets).
//
// Times are kept in CoDel's own unit (ns >> 10, 32 bits) and the drop schedule uses the
// kernel's fixed-point Newton step, so the drop times are the kernel's, not an approximation.
// The frames carry no ECN-capable codepoint (ECN is not negotiated), so CoDel drops rather than
// marks, as it does for such traffic.
//
// Assumption: the flow hash. Linux hashes the 5-tuple with a per-boot random key
// (skb_get_hash); this one uses a fixed key, so which flows share a queue differs from any
// given boot's but is as rare (a run has a handful of flows in 1024 queues).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include <systemc>

#include "host/net/qdisc.h"

namespace nicsim::net {

class fq_codel final : public qdisc {
  public:
    struct params {
        std::uint32_t limit = 10 * 1024;            // packets (sch->limit)
        std::uint32_t flows = 1024;                 // flows_cnt
        std::uint32_t quantum = 1514;               // psched_mtu: MTU + Ethernet header
        std::uint32_t mtu = 1514;                   // cparams.mtu: no drop below one frame
        std::uint64_t memory_limit = 32u << 20;     // bytes of truesize
        std::uint32_t drop_batch = 64;              // drop_batch_size
        sc_core::sc_time target{5, sc_core::SC_MS}; // codel_params_init
        sc_core::sc_time interval{100, sc_core::SC_MS};
    };
    using clock_fn = std::function<sc_core::sc_time()>;

    // `now` gives the time of an enqueue or dequeue (the caller's local time in the stack).
    fq_codel(const params& p, clock_fn now);

    bool enqueue(skb_ptr s) override;

    // CoDel's drops at dequeue, the overlimit drops at enqueue (both are in drops()).
    std::uint64_t codel_drops() const { return m_codel_drops; }
    std::uint64_t overlimit_drops() const { return m_overlimit_drops; }
    std::uint32_t new_flow_count() const { return m_new_flow_count; }
    // The flow queue an skb goes to (fq_codel_classify).
    std::uint32_t flow_of(const skb& s) const;

  private:
    using codel_time = std::uint32_t; // codel_time_t: ns >> CODEL_SHIFT
    struct queued {
        skb_ptr s;
        codel_time enqueued;
    };
    struct codel_vars {
        std::uint32_t count = 0, lastcount = 0;
        bool dropping = false;
        std::uint16_t rec_inv_sqrt = 0;
        codel_time first_above_time = 0, drop_next = 0, ldelay = 0;
    };
    struct flow {
        std::deque<queued> q;
        std::int32_t deficit = 0;
        bool listed = false; // on new_flows or old_flows (!list_empty(&flow->flowchain))
        codel_vars cv;
        std::uint32_t backlog = 0; // q->backlogs[idx]: bytes
    };

    skb_ptr dequeue_own() override;
    codel_time codel_now() const;
    skb_ptr codel_dequeue(flow& f, codel_time now);
    queued flow_dequeue(flow& f); // dequeue_func (an empty entry when the flow is empty)
    void drop(skb_ptr s);         // drop_func
    bool should_drop(const queued& e, codel_vars& v, codel_time now);
    static void newton_step(codel_vars& v);
    codel_time control_law(codel_time t, std::uint32_t rec_inv_sqrt) const;
    void drop_fattest(); // fq_codel_drop

    params m_p;
    clock_fn m_now;
    codel_time m_target, m_interval;
    std::vector<flow> m_flows;
    std::deque<std::uint32_t> m_new_flows, m_old_flows;
    std::uint32_t m_qlen = 0;
    std::uint64_t m_memory = 0;
    std::uint32_t m_new_flow_count = 0;
    std::uint64_t m_codel_drops = 0, m_overlimit_drops = 0;
};

} // namespace nicsim::net
