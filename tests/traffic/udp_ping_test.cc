// SPDX-License-Identifier: MIT
//
// udp_flood_flow and ping_flow over test delay lines.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tests/traffic/test_link.h"
#include "host/traffic/ping_flow.h"
#include "host/traffic/udp_flood_flow.h"

using namespace nicsim::traffic;
using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

struct udp_bench {
    udp_flood_flow flow;
    test::delay_line fwd;
    udp_bench(const udp_flood_config& cfg, double bw, sc_time latency)
        : flow("udp", cfg), fwd("fwd", bw, latency) {
        flow.sender().bind(
            port{[this](std::vector<std::uint8_t> f) { fwd.send(std::move(f)); }, {}, {}});
        fwd.sink = [this](const std::uint8_t* p, std::size_t n) { flow.receiver().receive(p, n); };
    }
};

struct ping_bench {
    ping_flow flow;
    test::delay_line fwd, rev;
    ping_bench(const ping_config& cfg, sc_time latency)
        : flow("ping", cfg), fwd("fwd", 0, latency), rev("rev", 0, latency) {
        flow.pinger().bind(
            port{[this](std::vector<std::uint8_t> f) { fwd.send(std::move(f)); }, {}, {}});
        flow.responder().bind(
            port{[this](std::vector<std::uint8_t> f) { rev.send(std::move(f)); }, {}, {}});
        fwd.sink = [this](const std::uint8_t* p, std::size_t n) { flow.responder().receive(p, n); };
        rev.sink = [this](const std::uint8_t* p, std::size_t n) { flow.pinger().receive(p, n); };
    }
};

} // namespace

// A receiving application slower than the link: the socket buffer (10000 bytes of truesize,
// 1810 per datagram here) fills and the rest are dropped and counted there, as UDP's
// RcvbufErrors; the link loses nothing, so every datagram is either received or such a drop.
TEST(TrafficUdp, AFullReceiveBufferDropsAndCounts) {
    udp_flood_config cfg;
    cfg.count = 100;
    cfg.payload_size = 1000;
    cfg.rate_bps = 10e6; // one per 800 us; the application takes 2 ms each
    udp_bench b(cfg, 100e6, sc_time(50, SC_US));
    stack_cost slow;
    slow.per_rx_frame = sc_time(2, SC_MS);
    b.flow.receiver().bind(port{{}, [](sc_time t) { sc_core::wait(t); }, slow});
    b.flow.receiver().limit_receive_buffer(socket_buffer(10000, 768));
    sc_core::sc_start(sc_time(10, sc_core::SC_SEC));

    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    const std::uint64_t drops = b.flow.receiver().rcvbuf_drops();
    EXPECT_GT(drops, 50u);
    EXPECT_EQ(r.received + drops, r.sent);
    EXPECT_EQ(b.flow.receiver().frames_accepted(), r.received);
}

// 200 datagrams paced at 10 Mbit/s of 1000-byte payload (one per 800 us); the link drops every
// 10th, so exactly 20 are lost and none reordered.
TEST(TrafficUdp, LossIsCountedExactly) {
    udp_flood_config cfg;
    cfg.count = 200;
    cfg.payload_size = 1000;
    cfg.rate_bps = 10e6;
    udp_bench b(cfg, 100e6, sc_time(50, SC_US));
    b.fwd.tamper = [](std::uint64_t i, std::vector<std::uint8_t>&) { return i % 10 != 9; };
    sc_core::sc_start(sc_time(10, sc_core::SC_SEC));

    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    ASSERT_FALSE(r.failed) << r.error;
    EXPECT_EQ(r.sent, 200u);
    EXPECT_EQ(r.received, 180u);
    EXPECT_EQ(r.lost, 20u);
    EXPECT_EQ(r.reordered, 0u);
    EXPECT_EQ(r.duplicates, 0u);
    EXPECT_EQ(r.corrupted, 0u);
    EXPECT_EQ(r.payload_bytes_received, 180000u);
    // Pacing is exact: datagram i leaves at i * 800 us.
    EXPECT_EQ(r.last_send - r.first_send, sc_time(800, SC_US) * 199.0);
    EXPECT_NEAR(r.offered_bps, 200 * 8000.0 / (199 * 800e-6), 1e-3);
    // Lost datagrams are only declared after the drain window.
    EXPECT_EQ(r.completion, r.last_send + cfg.drain_time);
}

// A port that swaps datagrams 10/11 and 30/31, duplicates 50 and corrupts 70 (with
// fail_on_corruption off) is reported as 2 reordered, 1 duplicate, 1 corrupted (then lost).
TEST(TrafficUdp, ReorderDuplicateAndCorruptionAreCounted) {
    udp_flood_config cfg;
    cfg.count = 100;
    cfg.payload_size = 200;
    cfg.rate_bps = 1e6;
    cfg.fail_on_corruption = false;
    udp_bench b(cfg, 0, sc_time(10, SC_US));
    std::vector<std::uint8_t> held;
    std::uint64_t n = 0;
    b.flow.sender().bind(port{[&](std::vector<std::uint8_t> f) {
                                  const auto i = n++;
                                  if (i == 10 || i == 30) {
                                      held = std::move(f);
                                      return;
                                  }
                                  if (i == 70)
                                      f[14 + 20 + 8 + 50] ^= 0x04;
                                  b.fwd.send(f);
                                  if (i == 50)
                                      b.fwd.send(f);
                                  if (i == 11 || i == 31)
                                      b.fwd.send(std::move(held));
                              },
                              {},
                              {}});
    sc_core::sc_start(sc_time(10, sc_core::SC_SEC));

    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    ASSERT_FALSE(r.failed) << r.error;
    EXPECT_EQ(r.sent, 100u);
    EXPECT_EQ(r.reordered, 2u);
    EXPECT_EQ(r.duplicates, 1u);
    EXPECT_EQ(r.corrupted, 1u);
    EXPECT_EQ(r.received, 99u);
    EXPECT_EQ(r.lost, 1u);
}

TEST(TrafficUdp, CorruptionFailsByDefault) {
    udp_flood_config cfg;
    cfg.count = 50;
    cfg.payload_size = 500;
    cfg.rate_bps = 1e6;
    udp_bench b(cfg, 0, sc_time(10, SC_US));
    b.fwd.tamper = [](std::uint64_t i, std::vector<std::uint8_t>& f) {
        if (i == 5)
            f.back() ^= 1;
        return true;
    };
    sc_core::sc_start(sc_time(10, sc_core::SC_SEC));
    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    ASSERT_TRUE(r.failed);
    EXPECT_NE(r.error.find("corrupted datagram: bad UDP checksum"), std::string::npos) << r.error;
}

// Fixed latency both ways: every RTT is exactly 2L, mdev is exactly 0, and with ping -A the
// next request leaves the moment the reply arrives, so 20 probes take 20 * 2L.
TEST(TrafficPing, FixedLatencyGivesExactRttAndZeroMdev) {
    ping_config cfg;
    cfg.count = 20;
    const sc_time L(250, SC_US);
    ping_bench b(cfg, L);
    sc_core::sc_start(sc_time(100, sc_core::SC_SEC));

    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    ASSERT_FALSE(r.failed) << r.error;
    EXPECT_EQ(r.transmitted, 20u);
    EXPECT_EQ(r.received, 20u);
    EXPECT_EQ(r.lost, 0u);
    EXPECT_EQ(r.requests_answered, 20u);
    EXPECT_EQ(r.rtt_min, L * 2.0);
    EXPECT_EQ(r.rtt_avg, L * 2.0);
    EXPECT_EQ(r.rtt_max, L * 2.0);
    EXPECT_EQ(r.rtt_mdev, sc_core::SC_ZERO_TIME);
    ASSERT_EQ(r.rtts.size(), 20u);
    // The last reply arrived at 20 * 2L: adaptive mode sends back to back.
    EXPECT_EQ(r.completion, L * 40.0);
}

// Replies 4, 8 (every 4th) take 5 ms instead of 1 ms on the way back; requests take 1 ms.
// RTTs repeat 2, 2, 2, 6 ms: mean 3 ms, mean of squares (4+4+4+36)/4 = 12 ms^2,
// mdev = sqrt(12 - 9) ms = sqrt(3) ms = 1.7320508 ms (1732050808 ps rounded).
TEST(TrafficPing, TwoLatencyPatternGivesHandComputedMdev) {
    ping_config cfg;
    cfg.count = 8;
    ping_bench b(cfg, sc_time(1, SC_MS));
    b.rev.latency_of = [](std::uint64_t i) {
        return i % 4 == 3 ? sc_time(5, SC_MS) : sc_time(1, SC_MS);
    };
    sc_core::sc_start(sc_time(100, sc_core::SC_SEC));

    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    ASSERT_FALSE(r.failed) << r.error;
    EXPECT_EQ(r.received, 8u);
    EXPECT_EQ(r.rtt_min, sc_time(2, SC_MS));
    EXPECT_EQ(r.rtt_max, sc_time(6, SC_MS));
    EXPECT_EQ(r.rtt_avg, sc_time(3, SC_MS));
    EXPECT_EQ(r.rtt_mdev.value(), 1732050808u); // sqrt(3) ms in ps, rounded
    EXPECT_NEAR(r.rtt_mdev.to_seconds(), std::sqrt(3.0) * 1e-3, 1e-12);
}

// A lost reply: the pinger waits `interval` before the next request and counts it lost; the
// responder's stack cost shows up in the RTT (2L + rx + tx cost).
TEST(TrafficPing, LostReplyAndResponderCost) {
    ping_config cfg;
    cfg.count = 5;
    cfg.interval = sc_time(100, SC_MS);
    cfg.timeout = sc_time(50, SC_MS);
    const sc_time L(200, SC_US);
    ping_bench b(cfg, L);
    stack_cost cost;
    cost.per_rx_frame = sc_time(30, SC_US);
    cost.per_tx_frame = sc_time(20, SC_US);
    b.flow.responder().bind(port{[&](std::vector<std::uint8_t> f) { b.rev.send(std::move(f)); },
                                 [](sc_time t) { sc_core::wait(t); }, cost});
    b.rev.tamper = [](std::uint64_t i, std::vector<std::uint8_t>&) { return i != 2; };
    sc_core::sc_start(sc_time(100, sc_core::SC_SEC));

    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    ASSERT_FALSE(r.failed) << r.error;
    EXPECT_EQ(r.transmitted, 5u);
    EXPECT_EQ(r.received, 4u);
    EXPECT_EQ(r.lost, 1u);
    const sc_time rtt = L * 2.0 + sc_time(50, SC_US);
    EXPECT_EQ(r.rtt_min, rtt);
    EXPECT_EQ(r.rtt_max, rtt);
    EXPECT_EQ(r.rtt_mdev, sc_core::SC_ZERO_TIME);
    // Requests 1-3 back to back (sent at 0, rtt, 2 rtt); request 4 `interval` after request 3,
    // request 5 one rtt later; then the pinger waits `timeout` for the missing reply.
    EXPECT_EQ(r.completion, rtt * 3.0 + cfg.interval + cfg.timeout);
}

TEST(TrafficPing, RttStatsOfIputilsExample) {
    // Three samples 1, 2, 4 ms: mean 7/3, mean of squares 21/3 = 7, variance 7 - 49/9 = 14/9,
    // mdev = sqrt(14)/3 ms = 1.247219 ms.
    sc_time mn, avg, mx, mdev;
    ping_flow::rtt_stats({sc_time(1, SC_MS), sc_time(2, SC_MS), sc_time(4, SC_MS)}, mn, avg, mx,
                         mdev);
    EXPECT_EQ(mn, sc_time(1, SC_MS));
    EXPECT_EQ(mx, sc_time(4, SC_MS));
    EXPECT_EQ(avg.value(), 2333333333u);
    EXPECT_NEAR(mdev.to_seconds(), std::sqrt(14.0) / 3 * 1e-3, 1e-12);
}
