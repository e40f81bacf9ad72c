// SPDX-License-Identifier: MIT
// skb guards (head underrun, tail overrun beyond the slack, double free, skb_put past end),
// leak reports, RX headroom, queues; kmalloc accounting.
#include <gtest/gtest.h>

#include <string>

#include <lx_kit/lx_emul_api.h>

#include "lx_test_util.h"

namespace lk = nicsim::lx_kit;

namespace {
// Captures log lines so tests can check what was reported.
std::vector<std::string>& captured() {
    static std::vector<std::string> lines;
    return lines;
}
void capture_log() {
    lk::set_log_sink([](const lk::log_record& r) { captured().push_back(r.text); });
}
} // namespace

TEST(LxSkbDeathTest, HeadUnderrunIsCaught) {
    EXPECT_EXIT(lx_test_skb_head_underrun(), testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE),
                "skb guard: head underrun .*skb #1 \\(allocated by lx_test_skb_head_underrun "
                "\\[lx_test\\].*head-3");
}

TEST(LxSkbDeathTest, TailOverrunBeyondSlackIsCaught) {
    // Default slack 8: a byte at end+8 is the first canary byte.
    EXPECT_EXIT(lx_test_skb_tail_overrun(8), testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE),
                "skb guard: tail overrun .*lx_test_skb_tail_overrun.*end\\+8 overwritten");
}

TEST(LxSkb, WriteWithinTailSlackIsAllowedButCounted) {
    capture_log();
    lx_test_skb_tail_overrun(1); // like ks8851_par's 2-byte RX overrun
    EXPECT_EQ(lx_emul_skb_slack_writes(), 1u);
    ASSERT_EQ(captured().size(), 1u);
    EXPECT_NE(captured()[0].find("wrote 2 byte(s) past end"), std::string::npos) << captured()[0];
}

TEST(LxSkbDeathTest, TailOverrunCaughtWhenSlackIsZero) {
    lk::params().skb_tail_slack = 0;
    EXPECT_EXIT(lx_test_skb_tail_overrun(1), testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE),
                "tail overrun .*end\\+1 overwritten.*0-byte tail slack");
}

TEST(LxSkbDeathTest, DoubleFreeIsCaught) {
    EXPECT_EXIT(lx_test_skb_double_free(), testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE),
                "skb double free: skb #1 \\(allocated by lx_test_skb_double_free \\[lx_test\\].*"
                "freed again by lx_test_skb_double_free");
}

TEST(LxSkbDeathTest, PutPastEndIsCaught) {
    EXPECT_EXIT(lx_test_skb_put_past_end(), testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE),
                "skb_put\\(len 17\\) in lx_test_skb_put_past_end.*past the end");
}

TEST(LxSkb, LeakIsReportedWithAllocationSite) {
    capture_log();
    EXPECT_EQ(lx_emul_skb_live_count(), 0u);
    lx_test_skb_leak_one();
    EXPECT_EQ(lx_emul_skb_live_count(), 1u);
    EXPECT_EQ(lx_emul_skb_report_leaks(), 1u);
    ASSERT_EQ(captured().size(), 1u);
    EXPECT_NE(captured()[0].find("leak: skb #1 (allocated by lx_test_skb_leak_one [lx_test]"),
              std::string::npos)
        << captured()[0];
    EXPECT_NE(captured()[0].find("len 10"), std::string::npos);
}

TEST(LxSkb, RxHeadroomCoversKs8851EightBytePrefix) {
    EXPECT_EQ(lx_test_skb_rx_headroom(), 66u); // NET_SKB_PAD (64) + NET_IP_ALIGN (2)
    EXPECT_EQ(lx_emul_skb_live_count(), 0u);
}

TEST(LxSkb, QueueAndGeometryOperations) {
    EXPECT_EQ(lx_test_skb_queue(), 0);
    EXPECT_EQ(lx_emul_skb_live_count(), 0u);
}

TEST(LxMem, LeaksAreReportedPerCallSite) {
    capture_log();
    lx_test_kmalloc_leak();
    EXPECT_EQ(lx_emul_mem_live_count(), 2u);
    EXPECT_EQ(lx_emul_mem_live_bytes(), 128u);
    EXPECT_EQ(lx_emul_mem_report_leaks(), 2u);
    ASSERT_EQ(captured().size(), 1u);
    EXPECT_EQ(captured()[0],
              "lx_emul: leak: 2 allocation(s), 128 bytes from lx_test_kmalloc_leak [lx_test]");
}

// Bytes a driver never wrote are the same in every run (traces must not depend on malloc).
TEST(LxMem, KmallocIsPoisonedKzallocIsZero) {
    EXPECT_EQ(lx_test_kmalloc_contents(), 0);
}

TEST(LxMemDeathTest, DoubleKfreeIsCaught) {
    EXPECT_EXIT(lx_test_kfree_twice(), testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE),
                "kfree|double free");
}
