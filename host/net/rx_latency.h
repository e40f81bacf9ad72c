// SPDX-License-Identifier: MIT
//
// rx_latency: the receive-side timing of a Linux host for applications that do not run on
// host_stack's TCP (ping, the UDP sink): a frame out of the driver's netif_rx reaches the
// application after the softirq starts (an irq_to_thread sample, drawn when the backlog was
// empty - a running NAPI poll takes new frames without a new latency, as in host_stack) and the
// blocked task is scheduled (a sched_wakeup sample per frame). Order is kept. Seeded streams, as
// host_stack's (jitter.h). The frames it holds are bounded by netdev_max_backlog: a frame that
// finds more than that many queued is dropped and counted (enqueue_to_backlog, softnet_stat
// "dropped").
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "host/net/jitter.h"
#include "host/net/net_settings.h"

namespace nicsim::net {

class rx_latency : public sc_core::sc_module {
  public:
    using sink_fn = std::function<void(const std::uint8_t*, std::size_t)>;

    // softirq_in_caller: a receive() from a thread runs the softirq work there (Linux >= 5.18
    // netif_rx, net_settings::netif_rx_in_caller): no irq_to_thread, only the task's wake-up.
    rx_latency(const sc_core::sc_module_name& nm, std::uint64_t seed,
               const latency_spec& irq_to_thread, const latency_spec& sched_wakeup, sink_fn sink,
               bool softirq_in_caller = false, std::uint32_t max_backlog = 1000);

    // Never blocks; any process kind.
    void receive(const std::uint8_t* data, std::size_t len);
    // Frames received but not yet handed to the application.
    std::size_t in_flight() const { return m_queue.size(); }
    std::uint64_t backlog_drops() const { return m_drops; }

  private:
    void deliver();
    bool m_softirq_in_caller;
    std::uint32_t m_max_backlog;
    std::uint64_t m_drops = 0;

    struct pending {
        std::vector<std::uint8_t> bytes;
        sc_core::sc_time due;
    };
    latency_stream m_irq, m_wakeup;
    sink_fn m_sink;
    std::deque<pending> m_queue;
    sc_core::sc_event m_arrived;
};

} // namespace nicsim::net
