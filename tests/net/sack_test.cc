// SPDX-License-Identifier: MIT
//
// SACK, RACK and PRR (host/net/tcp_sack.cc) on the netns-like harness: losses at chosen
// frames of the data link, the same transfer with tcp_sack on (Linux's default) and off.
#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "host/net/netstack_harness.h"
#include "host/traffic/frame.h"

using namespace nicsim::net;
using sc_core::SC_MS;
using sc_core::SC_SEC;
using sc_core::sc_time;

namespace {

// 100 Mbit/s, 5 ms, 20 MB: losses in the middle of congestion avoidance.
harness_config link(bool sack) {
    harness_config c;
    c.rate_bps = 100e6;
    c.delay = sc_time(5, SC_MS);
    c.total_bytes = 20000000;
    c.sender.net.tcp_sack = sack;
    c.receiver.net.tcp_sack = sack;
    return c;
}

std::uint32_t seq_of(const std::vector<std::uint8_t>& frame) {
    const auto p = nicsim::traffic::frame::parse(frame.data(), frame.size(), false);
    return p.tcp_seq;
}

// How long the sender stays in recovery after the losses, sampled every 100 us.
struct recovery_watch {
    sc_time first, last;
    bool seen = false;
    void start(const tcp_socket& s) {
        sc_core::sc_spawn([this, &s] {
            for (;;) {
                if (s.in_recovery()) {
                    if (!seen)
                        first = sc_core::sc_time_stamp();
                    seen = true;
                    last = sc_core::sc_time_stamp();
                }
                sc_core::wait(sc_time(100, sc_core::SC_US));
            }
        });
    }
    double ms() const { return seen ? (last - first).to_seconds() * 1e3 : 0; }
};

} // namespace

// Four segments lost from one window. With SACK the receiver reports the three blocks behind
// the holes, RACK marks every hole lost as soon as later data is SACKed, and one recovery
// resends all four within about one round trip; NewReno (tcp_sack 0) learns of one hole per
// partial ACK, one round trip each.
TEST(Sack, FourLossesInOneWindowAreRepairedInOneRoundTrip) {
    const std::set<std::uint64_t> lost{3000, 3004, 3008, 3012};
    netstack_harness with("with", link(true)), without("without", link(false));
    for (auto* h : {&with, &without})
        h->data_link().drop = [lost](std::uint64_t i, const std::vector<std::uint8_t>&) {
            return lost.count(i) > 0;
        };
    recovery_watch w_with, w_without;
    w_with.start(with.sender_socket());
    w_without.start(without.sender_socket());
    // The receiver's blocks, newest first, while the holes are open.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> most_blocks;
    sc_core::sc_spawn([&] {
        for (;;) {
            const auto& b = with.receiver_socket().sack_blocks();
            if (b.size() > most_blocks.size())
                most_blocks = b;
            sc_core::wait(sc_time(10, sc_core::SC_US));
        }
    });
    sc_core::sc_start(sc_time(4, SC_SEC));

    const auto r = with.result();
    EXPECT_TRUE(with.sender_socket().sack_ok());
    EXPECT_EQ(r.bytes_read, 20000000u);
    EXPECT_EQ(r.fast_retransmits, 1u);
    EXPECT_EQ(r.timeouts, 0u);
    EXPECT_EQ(r.retransmits, 4u);
    EXPECT_EQ(with.sender_socket().stats().rack_lost, 4u);
    EXPECT_GT(with.receiver_socket().stats().sack_acks_sent, 0u);
    // Four holes leave four blocks at most (TCP_NUM_SACKS), newest - the highest - first.
    ASSERT_GE(most_blocks.size(), 3u);
    EXPECT_LE(most_blocks.size(), 4u);
    for (std::size_t i = 1; i < most_blocks.size(); ++i)
        EXPECT_GT(most_blocks[i - 1].first, most_blocks[i].second);
    // Everything settled: no block, nothing SACKed, lost or retransmitted left outstanding.
    EXPECT_TRUE(with.receiver_socket().sack_blocks().empty());
    EXPECT_EQ(with.sender_socket().sacked_out(), 0u);
    EXPECT_EQ(with.sender_socket().lost_out(), 0u);
    EXPECT_EQ(with.sender_socket().retrans_out(), 0u);

    const auto n = without.result();
    EXPECT_FALSE(without.sender_socket().sack_ok());
    EXPECT_EQ(n.bytes_read, 20000000u);
    EXPECT_EQ(without.receiver_socket().stats().sack_acks_sent, 0u);
    // Base RTT 10 ms plus the shaper's queue: SACK within about one RTT, NewReno four.
    EXPECT_GT(w_with.ms(), 0.0);
    EXPECT_LT(w_with.ms() * 2.5, w_without.ms())
        << "recovery " << w_with.ms() << " ms with SACK, " << w_without.ms() << " ms without";
}

// A retransmission that is lost again. RACK orders by send time: once data sent after the
// retransmission is SACKed, the retransmission is lost too and goes again in the same
// recovery - no retransmission timeout, as Linux 6.1 does with tcp_recovery = 1.
TEST(Sack, RackFindsALostRetransmissionWithoutATimeout) {
    netstack_harness h("h", link(true));
    std::uint32_t victim = 0;
    int sent = 0;
    h.data_link().drop = [&](std::uint64_t i, const std::vector<std::uint8_t>& f) {
        if (i == 3000)
            victim = seq_of(f);
        if (i >= 3000 && seq_of(f) == victim && sent < 2) {
            ++sent; // the original and its first retransmission
            return true;
        }
        return false;
    };
    sc_core::sc_start(sc_time(4, SC_SEC));
    const auto r = h.result();
    EXPECT_EQ(sent, 2);
    EXPECT_EQ(r.bytes_read, 20000000u);
    EXPECT_EQ(r.timeouts, 0u);
    EXPECT_EQ(r.fast_retransmits, 1u);
    EXPECT_EQ(r.retransmits, 2u);
    EXPECT_EQ(h.sender_socket().stats().rack_lost, 2u);
}

// Proportional Rate Reduction: during the recovery cwnd is in_flight + what PRR allows, and it
// ends at ssthresh (CUBIC: 717/1024 of cwnd at the loss), not below.
TEST(Sack, PrrEndsTheRecoveryAtSsthresh) {
    netstack_harness h("h", link(true));
    std::uint32_t cwnd_at_loss = 0, min_cwnd_in_recovery = ~0u, cwnd_after = 0, ssthresh = 0;
    h.data_link().drop = [&](std::uint64_t i, const std::vector<std::uint8_t>&) {
        if (i == 3000)
            cwnd_at_loss = h.sender_socket().cc().cwnd;
        return i == 3000;
    };
    sc_core::sc_spawn([&] {
        while (!h.sender_socket().in_recovery())
            sc_core::wait(sc_time(10, sc_core::SC_US));
        ssthresh = h.sender_socket().cc().ssthresh;
        while (h.sender_socket().in_recovery()) {
            min_cwnd_in_recovery = std::min(min_cwnd_in_recovery, h.sender_socket().cc().cwnd);
            sc_core::wait(sc_time(10, sc_core::SC_US));
        }
        cwnd_after = h.sender_socket().cc().cwnd;
    });
    sc_core::sc_start(sc_time(4, SC_SEC));
    ASSERT_GT(cwnd_at_loss, 20u);
    EXPECT_NEAR(ssthresh, cwnd_at_loss * 717.0 / 1024.0, 2.0);
    // PRR sends about ssthresh/prior_cwnd per delivered segment: cwnd falls gradually and
    // never below what is in flight plus one.
    EXPECT_GE(min_cwnd_in_recovery, ssthresh / 2);
    EXPECT_GE(cwnd_after, ssthresh);
    EXPECT_LE(cwnd_after, ssthresh + 2);
}

// SACK is negotiated: a host with tcp_sack 0 makes both ends of the connection SACK-less (its
// SYN does not offer it), so four losses are repaired by NewReno without SACK blocks.
TEST(Sack, ItIsUsedOnlyWhenBothHostsHaveIt) {
    harness_config c = link(true);
    c.receiver.net.tcp_sack = false;
    netstack_harness h("h", c);
    const std::set<std::uint64_t> lost{3000, 3004, 3008, 3012};
    h.data_link().drop = [lost](std::uint64_t i, const std::vector<std::uint8_t>&) {
        return lost.count(i) > 0;
    };
    sc_core::sc_start(sc_time(4, SC_SEC));
    EXPECT_FALSE(h.sender_socket().sack_ok());
    EXPECT_FALSE(h.receiver_socket().sack_ok());
    EXPECT_EQ(h.receiver_socket().stats().sack_acks_sent, 0u);
    EXPECT_EQ(h.sender_socket().stats().rack_lost, 0u);
    const auto r = h.result();
    EXPECT_EQ(r.bytes_read, 20000000u);
    EXPECT_EQ(r.timeouts, 0u); // NewReno's partial ACKs, one hole per round trip
    EXPECT_EQ(r.retransmits, 4u);
}
