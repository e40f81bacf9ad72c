// SPDX-License-Identifier: MIT
//
// Tail loss probes (host/net/tcp_tlp.cc) on the netns-like harness: the last segment of a
// transfer is lost, so no later segment draws the SACK that would let RACK see it.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "host/net/netstack_harness.h"
#include "host/traffic/frame.h"

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

// A whole flight's ACKs are lost while the sender, cwnd-limited, still has data to send: no ACK
// comes back, so about two round trips later it probes with one segment of new data (the
// receive window has room; cwnd is ignored for a probe). Its ACK acknowledges everything: the
// probe found no loss (tcp_process_tlp_ack, !tlp_retrans), nothing is resent, no RTO fires and
// the flow keeps its cwnd.
TEST(TailLossProbe, LostAcksDrawANewDataProbeAndNoCwndReduction) {
    harness_config c;
    c.rate_bps = 20e6;
    c.delay = sc_time(5, SC_MS);
    c.total_bytes = 4 * 1024 * 1024;
    netstack_harness h("h", c);
    // From the 200th ACK on, every ACK is lost until the sender has sent a probe.
    std::uint64_t lost_acks = 0;
    std::uint32_t cwnd_before = 0;
    h.ack_link().drop = [&](std::uint64_t index, const std::vector<std::uint8_t>&) {
        if (index < 200 || h.sender_socket().stats().tlp_probes > 0)
            return false;
        if (lost_acks++ == 0)
            cwnd_before = h.sender_socket().cc().cwnd;
        return true;
    };
    sc_core::sc_start(sc_time(5, SC_SEC));
    const auto& t = h.sender_socket().stats();
    EXPECT_EQ(h.result().bytes_read, c.total_bytes);
    EXPECT_GT(lost_acks, 5u);
    EXPECT_EQ(t.tlp_probes, 1u);
    EXPECT_EQ(t.retransmits, 0u); // the probe carried new data
    EXPECT_EQ(t.timeouts, 0u);
    EXPECT_EQ(t.fast_retransmits, 0u);
    EXPECT_GT(cwnd_before, 10u);
    // CUBIC kept growing: the probe's ACK did not reduce cwnd to ssthresh.
    EXPECT_GE(h.sender_socket().cc().cwnd, cwnd_before);
}

// With only the lost tail out, the probe timer would be two smoothed RTTs plus tcp_rto_min
// (its ACK may be delayed); on a 75 ms path that is beyond the RTO, rearmed by the last ACK, so
// tcp_schedule_loss_probe caps it there (min(timeout, tcp_rto_delta_us)): the tail is probed
// when the RTO would have fired, never later, and no RTO is counted.
TEST(TailLossProbe, TheProbeNeverWaitsLongerThanTheRto) {
    harness_config c = link(3);
    c.delay = sc_time(75, SC_MS); // on the ACK path: the round trip
    netstack_harness h("h", c);
    tail_drop drop;
    sc_time last_ack_sent = sc_core::SC_ZERO_TIME, probe_at = sc_core::SC_ZERO_TIME;
    std::uint64_t rto_us = 0, srtt_us = 0;
    h.ack_link().drop = [&](std::uint64_t, const std::vector<std::uint8_t>&) {
        if (probe_at == sc_core::SC_ZERO_TIME)
            last_ack_sent = sc_core::sc_time_stamp();
        return false;
    };
    h.data_link().drop = [&](std::uint64_t, const std::vector<std::uint8_t>& f) {
        const bool lost = drop(f);
        const auto p = nicsim::traffic::frame::parse(f.data(), f.size(), false);
        if (!lost && drop.dropped && p.payload_len &&
            p.tcp_seq - drop.first_seq + p.payload_len == total &&
            probe_at == sc_core::SC_ZERO_TIME) {
            probe_at = sc_core::sc_time_stamp();
            rto_us = h.sender_socket().rto_us();
            srtt_us = h.sender_socket().srtt_us();
        }
        return lost;
    };
    sc_core::sc_start(sc_time(5, SC_SEC));
    const auto& t = h.sender_socket().stats();
    ASSERT_EQ(drop.dropped, 1);
    EXPECT_EQ(h.result().bytes_read, total);
    EXPECT_EQ(t.tlp_probes, 1u);
    EXPECT_EQ(t.timeouts, 0u);
    ASSERT_GT(probe_at, last_ack_sent);
    // The last ACK before the probe reached the sender a one-way delay after it left.
    const double waited_ms = (probe_at - last_ack_sent - c.delay).to_seconds() * 1e3;
    const double rto_ms = double(rto_us) / 1e3, srtt_ms = double(srtt_us) / 1e3;
    EXPECT_GT(2 * srtt_ms + 200.0, rto_ms + 20.0) << "the path must make the cap bind";
    // At the RTO (to the 4 ms jiffy and the link's serialisation), not at 2 srtt + rto_min.
    EXPECT_NEAR(waited_ms, rto_ms, 5.0)
        << "probe " << waited_ms << " ms after the last ACK, RTO " << rto_ms << " ms";
}
