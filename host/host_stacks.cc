// SPDX-License-Identifier: MIT
#include "host/host_stacks.h"

#include <stdexcept>

#include "host/board/board.h"
#include "core/run_error.h"

namespace nicsim::system {

using board::to_sc;

namespace {

net::net_settings settings(const std::map<std::string, std::string>& keys,
                           const std::string& prefix, net::net_settings n = {}) {
    for (const auto& [key, value] : keys) {
        try {
            n.set(key, value);
        } catch (const std::invalid_argument& e) {
            throw run_error(prefix + key + ": " + e.what());
        }
    }
    try {
        n.validate();
    } catch (const std::invalid_argument& e) {
        throw run_error(prefix + ": " + e.what());
    }
    return n;
}

} // namespace

traffic_session::stack_configs host_stack_configs(const config::scenario_config& sc,
                                                  const config::platform_profile& platform) {
    traffic_session::stack_configs s;
    // The board runs the real driver, whose netif_rx comes from a thread: 6.1 runs the RX
    // softirq there (net_settings::netif_rx_in_caller). The peer's frames come from its NIC's
    // interrupt (NAPI), so it keeps the softirq thread.
    net::net_settings board_defaults;
    board_defaults.netif_rx_in_caller = true;
    s.board.net = settings(sc.host.net, "host.net.", board_defaults);
    const config::net_stack_costs& c = platform.net_stack;
    s.board.costs.per_syscall = to_sc(c.per_syscall);
    s.board.costs.per_byte_copied = to_sc(c.per_byte_copied);
    s.board.costs.per_segment_sent = to_sc(c.per_segment_sent);
    s.board.costs.per_segment_recv = to_sc(c.per_segment_recv);
    s.board.costs.per_ack_recv = to_sc(c.per_ack_recv);
    s.board.costs.per_ack_sent = to_sc(c.per_ack_sent);
    s.board.costs.per_skb_alloc = to_sc(c.per_skb_alloc);
    s.board.costs.per_skb_free = to_sc(c.per_skb_free);
    const config::kernel_timing& k = platform.kernel;
    s.board.irq_to_thread =
        board::kernel_latency(k.irq_to_thread_latency, k.irq_to_thread_latency_p99, k);
    s.board.sched_wakeup =
        board::kernel_latency(k.sched_wakeup_latency, k.sched_wakeup_latency_p99, k);
    // The peer: a desktop PC whose stack costs and latencies are inside link.latency
    // (assumption, docs/host-stack.md): free and without jitter.
    s.peer.net = settings(sc.host.peer_net, "peer.net.");
    return s;
}

} // namespace nicsim::system
