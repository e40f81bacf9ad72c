// SPDX-License-Identifier: MIT
//
// Congestion control driven by a synthetic ACK clock: every RTT, cwnd ACKs of one segment each,
// evenly spaced (a flow that always has cwnd segments in flight over a fixed RTT).
#include <gtest/gtest.h>

#include <cmath>

#include "host/net/tcp_cc.h"

using namespace nicsim::net;

namespace {

// Runs `rtts` rounds of cwnd single-segment ACKs spaced over rtt_us, starting at *now.
void ack_clock(congestion_control& cc, cc_state& s, std::uint64_t& now, std::uint64_t rtt_us,
               unsigned rtts) {
    for (unsigned r = 0; r < rtts; ++r) {
        const std::uint32_t n = s.cwnd;
        for (std::uint32_t i = 0; i < n; ++i) {
            now += rtt_us / n;
            cc.pkts_acked(s, 1, static_cast<std::int64_t>(rtt_us), now);
            cc.cong_avoid(s, 1, now);
        }
    }
}

} // namespace

TEST(Cubic, WindowAfterLossFollowsCubicFunction) {
    net_settings cfg;
    cfg.cubic_hystart = false;
    // The TCP-friendly region would take over at short RTTs; switch it off to see the cubic.
    cfg.cubic_tcp_friendliness = false;
    cubic cu(cfg);
    cc_state s;
    s.cwnd = 100;
    s.ssthresh = 50; // congestion avoidance
    s.cwnd_limited = true;
    const std::uint64_t rtt = 100000; // 100 ms
    std::uint64_t now = 1;
    cu.pkts_acked(s, 1, rtt, now); // delay_min = 100 ms

    // Loss at W_max = 100: ssthresh = 100 * 717 / 1024, cwnd set to it (end of recovery).
    s.ssthresh = cu.ssthresh(s);
    EXPECT_EQ(s.ssthresh, 70u);
    EXPECT_EQ(cu.last_max_cwnd(), 100u);
    s.cwnd = s.ssthresh;
    const std::uint64_t epoch = now;
    ack_clock(cu, s, now, rtt, 1); // starts the epoch
    const double C = 410.0 / 1024.0;
    const double K = std::cbrt((100.0 - 70.0) / C); // 4.215 s
    EXPECT_NEAR(cu.k_seconds(), K, 1e-9);
    EXPECT_EQ(cu.origin_point(), 100u);

    // W(t) = C (t - K)^3 + W_max: concave up to W_max at K, then convex (probing).
    double max_err = 0;
    for (int step = 1; step <= 70; ++step) {
        ack_clock(cu, s, now, rtt, 1);
        const double t = static_cast<double>(now - epoch) * 1e-6;
        const double w = C * std::pow(t - K, 3.0) + 100.0;
        max_err = std::max(max_err, std::fabs(s.cwnd - w));
        // Within 2 segments: cwnd is an integer and follows the target one RTT behind.
        ASSERT_NEAR(s.cwnd, w, 2.0) << "t = " << t << " s";
    }
    // At K the window is back at W_max and has grown beyond it afterwards.
    EXPECT_GT(s.cwnd, 100u);
    EXPECT_GT(max_err, 0.0);
}

TEST(Cubic, FastConvergenceLowersWmaxWhenLosingBelowIt) {
    net_settings cfg;
    cubic cu(cfg);
    cc_state s;
    s.cwnd = 100;
    s.ssthresh = cu.ssthresh(s);
    EXPECT_EQ(cu.last_max_cwnd(), 100u);
    s.cwnd = 80; // lost again before reaching the old W_max
    s.ssthresh = cu.ssthresh(s);
    EXPECT_EQ(cu.last_max_cwnd(), 80u * (1024u + 717u) / 2048u); // 68
    EXPECT_EQ(s.ssthresh, 80u * 717u / 1024u);
    cfg.cubic_fast_convergence = false;
    cubic plain(cfg);
    cc_state p;
    p.cwnd = 100;
    plain.ssthresh(p);
    p.cwnd = 80;
    plain.ssthresh(p);
    EXPECT_EQ(plain.last_max_cwnd(), 80u);
}

TEST(Cubic, HyStartDelayIncreaseEndsSlowStart) {
    net_settings cfg;
    cubic cu(cfg);
    cc_state s;
    s.cwnd = 32; // above hystart_low_window (16)
    s.cwnd_limited = true;
    std::uint64_t now = 1000;
    // One round at 10 ms sets delay_min; the next round's first 8 samples at 10 + 4 ms + 1 us
    // exceed delay_min + clamp(delay_min / 8, 4 ms, 16 ms).
    s.snd_nxt = 100000;
    for (int i = 0; i < 8; ++i)
        cu.pkts_acked(s, 1, 10000, now += 3000); // spaced > hystart_ack_delta: no ACK train
    EXPECT_FALSE(cu.hystart_found());
    s.snd_una = 100001; // next round
    s.snd_nxt = 200000;
    for (int i = 0; i < 9 && !cu.hystart_found(); ++i)
        cu.pkts_acked(s, 1, 14001, now += 3000);
    EXPECT_TRUE(cu.hystart_found());
    EXPECT_EQ(s.ssthresh, 32u); // slow start ends at the current cwnd
}

TEST(Reno, SlowStartAddsAckedSegmentsAndAvoidanceOnePerRtt) {
    reno r;
    cc_state s;
    s.cwnd = 10;
    s.ssthresh = 0x7fffffff;
    std::uint64_t now = 0;
    ack_clock(r, s, now, 10000, 1);
    EXPECT_EQ(s.cwnd, 20u); // doubled in one RTT
    s.ssthresh = 20;
    ack_clock(r, s, now, 10000, 5);
    EXPECT_EQ(s.cwnd, 25u); // +1 per RTT
    EXPECT_EQ(r.ssthresh(s), 12u);
    s.cwnd_limited = false; // an application-limited flow does not grow
    ack_clock(r, s, now, 10000, 3);
    EXPECT_EQ(s.cwnd, 25u);
}
