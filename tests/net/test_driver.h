// SPDX-License-Identifier: MIT
//
// Test-only device models for the host stack's netdev_port (use (a) of the contract: a driver
// that keeps the skbs it accepted until it has "copied them to the chip" and frees them then).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "host/net/host_stack.h"

namespace nicsim::net::test {

inline tcp_addr addr_a() {
    return {traffic::frame::mac_addr::parse("02:00:00:00:00:01"),
            traffic::frame::ipv4_addr::parse("10.0.0.1"), 40000};
}
inline tcp_addr addr_b() {
    return {traffic::frame::mac_addr::parse("02:00:00:00:00:02"),
            traffic::frame::ipv4_addr::parse("10.0.0.2"), 5201};
}

// Holds accepted skbs. Flow control as the real drivers do it: netif_stop_queue once `stop_at`
// skbs are held, netif_wake_queue when fewer than `wake_below` remain (wilc1000:
// FLOW_CONTROL_UPPER/LOWER_THRESHOLD). With `busy_when_full` it instead returns NETDEV_TX_BUSY
// when full and never stops or wakes the queue (a driver relying on the qdisc's requeue and
// net_tx_action's retry, as ks8851_par does).
struct holding_driver {
    std::size_t stop_at = 1000000;
    std::size_t wake_below = 0;
    bool busy_when_full = false;
    bool stopped = false;
    std::deque<skb_ptr> held;
    std::vector<std::uint32_t> seqs; // TCP sequence numbers in xmit order
    std::uint64_t busy = 0;
    host_stack* stack = nullptr;

    netdev_port port() {
        netdev_port p;
        p.xmit = [this](skb_ptr& s) {
            if (busy_when_full && held.size() >= stop_at) {
                ++busy;
                return netdev_tx::busy;
            }
            const auto f = traffic::frame::parse(s->data.data(), s->data.size(), false);
            seqs.push_back(f.tcp_seq);
            held.push_back(std::move(s));
            if (!busy_when_full && held.size() >= stop_at)
                stopped = true;
            return netdev_tx::ok;
        };
        p.queue_stopped = [this] { return stopped; };
        return p;
    }
    // The chip took the oldest frame: free it (dev_kfree_skb -> destructor), wake if below.
    void complete_one() {
        held.pop_front();
        if (stopped && held.size() < wake_below) {
            stopped = false;
            stack->netif_wake_queue();
        }
        // busy_when_full: nothing wakes the queue (ks8851_par); the qdisc retries by itself.
    }
};

} // namespace nicsim::net::test
