// SPDX-License-Identifier: MIT
//
// tcp_bulk_flow over test delay lines (tests/traffic/test_link.h). Each TEST runs sc_start once
// in its own process (cmake/NicsimTest.cmake).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/traffic/test_link.h"
#include "host/traffic/tcp_bulk_flow.h"

using namespace nicsim::traffic;
using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

// Frame sizes with the default timestamp option: 14 + 20 + 32 header bytes.
constexpr std::size_t hdr = 14 + 20 + 32;

// sender -> fwd -> receiver, receiver -> rev -> sender.
struct tcp_bench {
    tcp_bulk_flow flow;
    test::delay_line fwd, rev;

    tcp_bench(const tcp_bulk_config& cfg, double bw, sc_time latency)
        : flow("ttcp", cfg), fwd("fwd", bw, latency), rev("rev", bw, latency) {
        flow.sender().bind(
            port{[this](std::vector<std::uint8_t> f) { fwd.send(std::move(f)); }, {}, {}});
        flow.receiver().bind(
            port{[this](std::vector<std::uint8_t> f) { rev.send(std::move(f)); }, {}, {}});
        fwd.sink = [this](const std::uint8_t* p, std::size_t n) { flow.receiver().receive(p, n); };
        rev.sink = [this](const std::uint8_t* p, std::size_t n) { flow.sender().receive(p, n); };
    }

    void run(sc_time limit = sc_time(1000, sc_core::SC_SEC)) { sc_core::sc_start(limit); }
};

} // namespace

// Window large enough never to stall: the forward link is busy from the first segment to the
// last, so the transfer takes exactly
//   sum of serialisation times of all data frames + L (last segment's flight)
//   + T_ack (its ACK's serialisation) + L (the ACK's flight),
// and goodput = total*8 / that. Every term is an integer number of picoseconds here, so the
// simulated time must match exactly; the goodput (a double division) to 1e-12 relative.
TEST(TrafficTcp, BandwidthLimitedGoodputMatchesAnalysis) {
    tcp_bulk_config cfg;
    cfg.total_bytes = 1448 * 300 + 1000; // a partial last segment
    cfg.window = 65536;                  // >> bandwidth-delay product (~0.5 KB)
    cfg.seed = 42;
    const double bw = 10e6;
    const sc_time L(100, SC_US);
    tcp_bench b(cfg, bw, L);
    b.run();

    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    ASSERT_FALSE(r.failed) << r.error;
    EXPECT_EQ(r.bytes_delivered, cfg.total_bytes);
    EXPECT_EQ(r.segments_sent, 301u);
    EXPECT_EQ(r.segments_retransmitted, 0u);
    // Delayed ACK: one ACK per two segments; 301 segments -> 150 pairs + the final segment,
    // which completes the stream and is ACKed at once.
    EXPECT_EQ(r.acks_sent, 151u);

    const sc_time t_seg = b.fwd.serialisation(1448 + hdr); // 1211.2 us
    const sc_time t_last = b.fwd.serialisation(1000 + hdr);
    const sc_time t_ack = b.rev.serialisation(hdr); // 52.8 us
    const sc_time expected = t_seg * 300.0 + t_last + L + t_ack + L;
    EXPECT_EQ(r.duration(), expected);
    EXPECT_EQ(r.first_send, sc_core::SC_ZERO_TIME);
    const double expected_bps = cfg.total_bytes * 8.0 / expected.to_seconds();
    EXPECT_NEAR(r.goodput_bps, expected_bps, expected_bps * 1e-12);
    // Sanity against the asymptote bw * mss / frame (9.564 Mbit/s); the finite run is lower by
    // its start-up and the short last frame, by less than 1 %.
    EXPECT_NEAR(r.goodput_bps / (bw * 1448.0 / (1448 + hdr)), 1.0, 0.01);
}

// Window of k = 4 segments, ACK per segment (delayed ACK off), long latency: the sender sends k
// segments back to back, then each ACK releases one more. Segment j+k leaves when the ACK of j
// arrives, so every k segments take the period P = 2L + T_ack + T_seg, and the ACK of the last
// of N = M*k segments arrives at M*P + (k-1)*T_seg. Valid while k*T_seg < P (burst done before
// the first ACK returns) and ACKs never queue (T_ack < T_seg); both hold here. Exact in ps.
TEST(TrafficTcp, WindowLimitedGoodputMatchesAnalysis) {
    const unsigned k = 4, M = 100;
    tcp_bulk_config cfg;
    cfg.total_bytes = 1448ull * k * M;
    cfg.window = 1448 * k;
    cfg.delayed_ack = false;
    cfg.seed = 7;
    const double bw = 100e6;
    const sc_time L(1, SC_MS);
    tcp_bench b(cfg, bw, L);
    b.run();

    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    ASSERT_FALSE(r.failed) << r.error;
    EXPECT_EQ(r.bytes_delivered, cfg.total_bytes);
    EXPECT_EQ(r.segments_sent, k * M);
    EXPECT_EQ(r.acks_sent, k * M);
    const sc_time t_seg = b.fwd.serialisation(1448 + hdr); // 121.12 us
    const sc_time t_ack = b.rev.serialisation(hdr);        // 5.28 us
    const sc_time P = L + L + t_ack + t_seg;
    ASSERT_LT(t_seg * static_cast<double>(k), P);
    const sc_time expected = P * static_cast<double>(M) + t_seg * static_cast<double>(k - 1);
    EXPECT_EQ(r.duration(), expected);
    const double expected_bps = cfg.total_bytes * 8.0 / expected.to_seconds();
    EXPECT_NEAR(r.goodput_bps, expected_bps, expected_bps * 1e-12);
    // Far below the link rate: window-limited, about W*8/P = 21.8 Mbit/s.
    EXPECT_NEAR(r.goodput_bps, cfg.window * 8.0 / P.to_seconds(), 0.01 * r.goodput_bps);
}

// Every 50th frame in each direction is lost (data and ACKs): the flow must still deliver every
// byte, in order, intact, using fast retransmit and timeouts.
TEST(TrafficTcp, LossyLinkCompletesWithRetransmissions) {
    tcp_bulk_config cfg;
    cfg.total_bytes = 1 << 20; // 725 segments, the last partial
    cfg.seed = 3;
    tcp_bench b(cfg, 20e6, sc_time(100, SC_US));
    const auto every50 = [](std::uint64_t i, std::vector<std::uint8_t>&) { return i % 50 != 49; };
    b.fwd.tamper = every50;
    b.rev.tamper = every50;
    b.run();

    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    ASSERT_FALSE(r.failed) << r.error;
    EXPECT_EQ(r.bytes_delivered, cfg.total_bytes);
    EXPECT_GT(b.fwd.dropped(), 10u);
    EXPECT_GT(b.rev.dropped(), 3u);
    EXPECT_GT(r.segments_retransmitted, 0u);
    EXPECT_GT(r.out_of_order_segments, 0u);
    // The receiver keeps out-of-order data, so each lost data segment is resent exactly once, by
    // fast retransmit, and no timeout is needed (lost ACKs are covered by later cumulative
    // ACKs). Plain go-back-N would resend whole windows here.
    EXPECT_EQ(r.segments_retransmitted, b.fwd.dropped());
    EXPECT_EQ(r.fast_retransmits, b.fwd.dropped());
    EXPECT_EQ(r.timeouts, 0u);
    // Every new segment is sent once as new; the rest are retransmissions.
    EXPECT_EQ(r.segments_sent - r.segments_retransmitted, (cfg.total_bytes + 1447) / 1448);
    EXPECT_GT(r.goodput_bps, 0.0);
}

// One payload byte of the 10th data frame is flipped on the wire. The flow fails with the first
// mismatch at stream offset 9*1448 + 100 (no loss before it, so frame 9 carries offset 9*1448).
TEST(TrafficTcp, CorruptedByteFailsWithFirstMismatch) {
    tcp_bulk_config cfg;
    cfg.total_bytes = 200000;
    tcp_bench b(cfg, 10e6, sc_time(50, SC_US));
    std::uint8_t original = 0;
    b.fwd.tamper = [&](std::uint64_t i, std::vector<std::uint8_t>& f) {
        if (i == 9) {
            original = f[hdr + 100];
            f[hdr + 100] ^= 0xff;
        }
        return true;
    };
    b.run();

    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    ASSERT_TRUE(r.failed);
    ASSERT_TRUE(r.mismatch);
    const std::uint64_t off = 9 * 1448 + 100;
    EXPECT_EQ(r.mismatch_offset, off);
    EXPECT_EQ(r.mismatch_expected, original);
    EXPECT_EQ(r.mismatch_got, static_cast<std::uint8_t>(original ^ 0xff));
    EXPECT_NE(r.error.find("payload mismatch at stream offset " + std::to_string(off)),
              std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find("ttcp"), std::string::npos) << r.error;
    EXPECT_LT(r.bytes_delivered, cfg.total_bytes);
}

// A path that stops carrying data must end the flow with a clear error, not hang.
TEST(TrafficTcp, DeadPathGivesUpAfterMaxRetransmits) {
    tcp_bulk_config cfg;
    cfg.total_bytes = 100000;
    cfg.max_retransmits = 3;
    tcp_bench b(cfg, 10e6, sc_time(50, SC_US));
    b.fwd.tamper = [](std::uint64_t i, std::vector<std::uint8_t>&) { return i < 20; };
    b.run();

    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    ASSERT_TRUE(r.failed);
    EXPECT_NE(r.error.find("gave up after 3 retransmission timeouts"), std::string::npos)
        << r.error;
    EXPECT_EQ(r.timeouts, 4u);
    // Backoff: 200 + 400 + 800 + 1600 ms after the last progress.
    EXPECT_GT(r.completion, sc_time(3000, SC_MS));
}

// The CPU-cost hook is called from the endpoint's thread with the port's per-frame cost; a hook
// that takes the time delays the flow accordingly. Window of one segment, no delayed ACK: each
// round trip is T_seg + L + rx + tx(ACK) + T_ack + L + rx(ACK) + tx(next segment), where the
// receiver pays rx + tx and the sender pays tx before each segment and rx per ACK.
TEST(TrafficTcp, CpuCostHookChargesEachFrame) {
    tcp_bulk_config cfg;
    cfg.total_bytes = 1448 * 10;
    cfg.window = 1448;
    cfg.delayed_ack = false;
    const sc_time L(10, SC_US);
    tcp_bench b(cfg, 100e6, L);
    sc_time charged_host = sc_core::SC_ZERO_TIME;
    stack_cost host_cost;
    host_cost.per_tx_frame = sc_time(20, SC_US);
    host_cost.per_rx_frame = sc_time(15, SC_US);
    host_cost.per_payload_byte = sc_time(1, sc_core::SC_NS);
    b.flow.sender().bind(port{[&](std::vector<std::uint8_t> f) { b.fwd.send(std::move(f)); },
                              [&](sc_time t) {
                                  charged_host += t;
                                  sc_core::wait(t);
                              },
                              host_cost});
    b.run();

    const auto& r = b.flow.result();
    ASSERT_FALSE(r.failed) << r.error;
    ASSERT_TRUE(r.finished);
    // 10 segments (20 us + 1448 ns each) and 10 ACKs (15 us each).
    EXPECT_EQ(charged_host, sc_time(20, SC_US) * 10.0 + sc_time(1448, sc_core::SC_NS) * 10.0 +
                                sc_time(15, SC_US) * 10.0);
    const sc_time t_seg = b.fwd.serialisation(1448 + hdr), t_ack = b.rev.serialisation(hdr);
    const sc_time tx = sc_time(20, SC_US) + sc_time(1448, sc_core::SC_NS);
    // first_send is stamped before the first tx cost; the last ACK's rx cost is paid before
    // the sender records it.
    const sc_time per_round = tx + t_seg + L + t_ack + L + sc_time(15, SC_US);
    EXPECT_EQ(r.duration(), per_round * 10.0);
}

TEST(TrafficTcp, BadConfigIsRejectedWithItsName) {
    tcp_bulk_config cfg;
    cfg.mss = 1461; // 1461 + 52 > 1500
    try {
        tcp_bulk_flow f("bad", cfg);
        FAIL() << "accepted an mss that does not fit the mtu";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("tcp_bulk_flow 'bad': mss 1461"), std::string::npos)
            << e.what();
    }
}

// Frames that are not for the flow (other ports, other MACs) are ignored and counted.
TEST(TrafficTcp, ForeignFramesAreIgnored) {
    tcp_bulk_config cfg;
    cfg.total_bytes = 1448 * 4;
    tcp_bench b(cfg, 0, sc_time(10, SC_US));
    b.fwd.tamper = [](std::uint64_t i, std::vector<std::uint8_t>& f) {
        if (i == 0)
            f[5] ^= 0x10; // first segment to another unicast MAC: dropped by the receiver
        return true;
    };
    b.run();
    const auto& r = b.flow.result();
    ASSERT_FALSE(r.failed) << r.error;
    EXPECT_EQ(b.flow.receiver().frames_ignored(), 1u);
    EXPECT_EQ(r.bytes_delivered, cfg.total_bytes);
    EXPECT_GE(r.segments_retransmitted, 1u);
}

// The 32-bit sequence space wraps inside the transfer (the receiver and sender unwrap around
// rcv_nxt / snd_una). The seed is searched so that the sender's ISN lies within the first
// 100 KB below 2^32; the flow itself confirms the wrap through wire_seq().
TEST(TrafficTcp, SequenceNumberWrapIsHandled) {
    tcp_bulk_config cfg;
    cfg.total_bytes = 1 << 20;
    std::uint64_t seed = 0;
    // The sender ISN is the low 32 bits of mix_seed(seed, 2) (documented in docs/traffic.md).
    while (static_cast<std::uint32_t>(mix_seed(seed, 2)) < 0xffffffffu - 100000u)
        ++seed;
    cfg.seed = seed;
    tcp_bench b(cfg, 20e6, sc_time(100, SC_US));
    ASSERT_GT(b.flow.wire_seq(0), b.flow.wire_seq(cfg.total_bytes)); // wraps
    const auto every50 = [](std::uint64_t i, std::vector<std::uint8_t>&) { return i % 50 != 49; };
    b.fwd.tamper = every50;
    b.run();
    const auto& r = b.flow.result();
    ASSERT_TRUE(r.finished);
    ASSERT_FALSE(r.failed) << r.error;
    EXPECT_EQ(r.bytes_delivered, cfg.total_bytes);
    EXPECT_GT(r.segments_retransmitted, 0u);
}
