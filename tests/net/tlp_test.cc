// SPDX-License-Identifier: MIT
//
// Tail loss probes (testbench/net/tcp_tlp.cc) on the netns-like harness: the last segment of a
// transfer is lost, so no later segment draws the SACK that would let RACK see it.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "testbench/net/netstack_harness.h"
#include "testbench/traffic/frame.h"

using namespace nicsim::net;
using sc_core::SC_MS;
using sc_core::SC_SEC;
using sc_core::sc_time;

namespace {

constexpr std::uint64_t total = 100 * 1448; // whole segments: none waits for Nagle

// 20 Mbit/s, 5 ms; `early_retrans` is the sender's net.ipv4.tcp_early_retrans.
harness_config link(std::uint32_t early_retrans) {
    harness_config c;
    c.rate_bps = 20e6;
    c.delay = sc_time(5, SC_MS);
    c.total_bytes = total;
    c.sender.net.tcp_early_retrans = early_retrans;
    return c;
}

struct tail_drop {
    std::uint32_t first_seq = 0;
    bool seen_first = false;
    int dropped = 0;
    // Drops the first transmission of the segment that ends the stream.
    bool operator()(const std::vector<std::uint8_t>& frame) {
        const auto p = nicsim::traffic::frame::parse(frame.data(), frame.size(), false);
        if (p.payload_len == 0)
            return false;
        if (!seen_first) {
            first_seq = p.tcp_seq;
            seen_first = true;
        }
        if (p.tcp_seq - first_seq + p.payload_len == total && dropped == 0) {
            ++dropped;
            return true;
        }
        return false;
    }
};

} // namespace

// The transfer ends with full segments sent while others are still out; the last one is lost.
// Linux's default (tcp_early_retrans 3): about two round trips after the last ACK the sender
// probes with the last segment, the receiver's ACK completes the stream, and no RTO fires.
// Without probes (tcp_early_retrans 0) the same loss waits for the RTO, at least tcp_rto_min.
TEST(TailLossProbe, ProbeRepairsALostTailWithoutWaitingForTheRto) {
    netstack_harness with("with", link(3)), without("without", link(0));
    tail_drop drop_with, drop_without;
    with.data_link().drop = [&](std::uint64_t, const std::vector<std::uint8_t>& f) {
        return drop_with(f);
    };
    without.data_link().drop = [&](std::uint64_t, const std::vector<std::uint8_t>& f) {
        return drop_without(f);
    };
    // When the receiving application has the whole stream (polled every 100 us).
    auto done_at = [](netstack_harness& h, double& ms) {
        sc_core::sc_spawn([&h, &ms] {
            while (h.receiver_socket().stats().bytes_read < total)
                sc_core::wait(sc_time(100, sc_core::SC_US));
            ms = sc_core::sc_time_stamp().to_seconds() * 1e3;
        });
    };
    double done_with = 0, done_without = 0;
    done_at(with, done_with);
    done_at(without, done_without);
    sc_core::sc_start(sc_time(3, SC_SEC));

    const auto& t = with.sender_socket().stats();
    EXPECT_EQ(drop_with.dropped, 1);
    EXPECT_EQ(with.result().bytes_read, total);
    EXPECT_EQ(t.tlp_probes, 1u);
    EXPECT_EQ(t.timeouts, 0u);
    EXPECT_EQ(t.retransmits, 1u);
    const auto& n = without.sender_socket().stats();
    EXPECT_EQ(drop_without.dropped, 1);
    EXPECT_EQ(without.result().bytes_read, total);
    EXPECT_EQ(n.tlp_probes, 0u);
    EXPECT_EQ(n.timeouts, 1u);
    // The probe goes after two smoothed RTTs and 2 ms (rounded up to a 4 ms jiffy); the RTO
    // waits at least 200 ms.
    const double srtt_ms = double(with.sender_socket().srtt_us()) / 1e3;
    EXPECT_LT(done_with + 150.0, done_without)
        << "with probes " << done_with << " ms, without " << done_without << " ms";
    EXPECT_LT(done_with, done_without - 200.0 + 2 * srtt_ms + 6.0 + 20.0);
}
