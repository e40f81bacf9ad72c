// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "host/net/tsq.h"

using namespace nicsim::net;

TEST(Tsq, LimitIsPacingRateShiftedOrTwoTruesizesCappedByLimitOutputBytes) {
    const std::uint32_t truesize = 2282;
    // 12.5 MB/s (100 Mbit/s) >> 10 = 12207 bytes (about 1 ms of data) > 2 * truesize.
    EXPECT_EQ(tsq_limit(12500000, 10, truesize, 1048576, false, 0), 12500000u >> 10);
    // mac80211's shift 8 allows 4x as much (about 4 ms).
    EXPECT_EQ(tsq_limit(12500000, 8, truesize, 1048576, false, 0), 12500000u >> 8);
    // A slow socket keeps at least two skbs below it.
    EXPECT_EQ(tsq_limit(1500000, 10, truesize, 1048576, false, 0), 2u * truesize);
    // tcp_limit_output_bytes caps an unpaced socket ...
    EXPECT_EQ(tsq_limit(125000000, 6, truesize, 262144, false, 0), 262144u);
    // ... but not a paced one (sk_pacing_status != SK_PACING_NONE).
    EXPECT_EQ(tsq_limit(125000000, 6, truesize, 262144, true, 0), 125000000u >> 6);
    // Retransmissions get twice the room.
    EXPECT_EQ(tsq_limit(12500000, 10, truesize, 1048576, false, 1), 2u * (12500000u >> 10));
}

TEST(Tsq, PacingRateIs200PercentInSlowStartAnd120PercentInCongestionAvoidance) {
    // 10 segments of 1448 bytes per 10 ms srtt = 1.448 MB/s.
    EXPECT_EQ(pacing_rate(1448, 10, 0, 0x7fffffff, 10000, 200, 120), 2896000u);
    // cwnd >= ssthresh / 2: the congestion-avoidance ratio.
    EXPECT_EQ(pacing_rate(1448, 10, 0, 20, 10000, 200, 120), 1737600u);
    EXPECT_EQ(pacing_rate(1448, 10, 0, 21, 10000, 200, 120), 1737600u); // 21 / 2 == 10
    EXPECT_EQ(pacing_rate(1448, 10, 0, 22, 10000, 200, 120), 2896000u);
    // More packets out than cwnd (after a reduction): the larger counts.
    EXPECT_EQ(pacing_rate(1448, 10, 20, 10, 10000, 200, 120), 2u * 1737600u);
    EXPECT_EQ(pacing_rate(1448, 10, 0, 10, 0, 200, 120), 0u); // no srtt yet
}

TEST(Tsq, SndbufExpandIsTwoWorstCaseSkbsPerSegment) {
    // per_mss = roundup_pow_of_two(1448 + 320 + 320) + 256 = 4352.
    EXPECT_EQ(sndbuf_expand(1448, 10, 10, 3, 4194304), 2u * 10u * 4352u);
    EXPECT_EQ(sndbuf_expand(1448, 4, 10, 3, 4194304), 2u * 10u * 4352u); // at least init cwnd
    EXPECT_EQ(sndbuf_expand(1448, 100, 10, 3, 4194304), 2u * 100u * 4352u);
    EXPECT_EQ(sndbuf_expand(1448, 1000, 10, 3, 4194304), 4194304u); // tcp_wmem[2]
}
