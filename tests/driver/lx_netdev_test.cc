// SPDX-License-Identifier: MIT
// The netdev emulation's transmit path with a driver that answers NETDEV_TX_BUSY: the qdisc
// requeues the refused skb (dev_requeue_skb), so the next offer of the frame is the same skb,
// and while it waits it is the stack's, not the driver's (not counted live); a different frame
// and ifdown drop it without a leak.
#include <gtest/gtest.h>

#include <vector>

#include <lx_kit/lx_emul_api.h>

#include "lx_netdev_scn.h"

namespace {
std::vector<unsigned char> frame(unsigned char fill, unsigned len = 60) {
    std::vector<unsigned char> f(len, fill);
    for (int i = 0; i < 6; ++i)
        f[i] = 0xff; // broadcast destination, then the source and type from `fill`
    return f;
}
} // namespace

TEST(LxNetdev, RefusedSkbIsOfferedAgainAndIsNotTheDrivers) {
    lx_test_xmit_log log{};
    void* dev = lx_test_netdev_up(&log);
    ASSERT_NE(dev, nullptr);
    const auto a = frame(0xa1), b = frame(0xb2, 70);
    EXPECT_NE(lx_test_netdev_xmit(dev, a.data(), a.size(), 2), 0); // NETDEV_TX_BUSY
    EXPECT_EQ(lx_emul_skb_live_count(), 0u) << "a requeued skb waits in the qdisc";
    EXPECT_NE(lx_test_netdev_xmit(dev, a.data(), a.size(), 1), 0);
    EXPECT_EQ(lx_test_netdev_xmit(dev, a.data(), a.size(), 0), 0); // accepted, freed
    ASSERT_EQ(log.offers, 3);
    EXPECT_EQ(log.skb[1], log.skb[0]) << "the retry must offer the same skb";
    EXPECT_EQ(log.skb[2], log.skb[0]);
    EXPECT_EQ(log.live_during[1], 1u); // while the driver has it, it is the driver's
    EXPECT_EQ(lx_emul_skb_live_count(), 0u);

    // Refused, then the stack offers another frame: the parked skb is dropped, a new one made.
    EXPECT_NE(lx_test_netdev_xmit(dev, a.data(), a.size(), 1), 0);
    EXPECT_EQ(lx_test_netdev_xmit(dev, b.data(), b.size(), 0), 0);
    ASSERT_EQ(log.offers, 5);
    EXPECT_EQ(log.len[3], 60u);
    EXPECT_EQ(log.len[4], 70u);
    EXPECT_EQ(lx_emul_skb_live_count(), 0u);

    // Refused and then the interface goes down: the qdisc's reset frees it.
    EXPECT_NE(lx_test_netdev_xmit(dev, b.data(), b.size(), 1), 0);
    lx_test_netdev_down(dev);
    EXPECT_EQ(lx_emul_skb_live_count(), 0u);
    EXPECT_EQ(lx_emul_skb_report_leaks(), 0u);
}
