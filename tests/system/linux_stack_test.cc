// SPDX-License-Identifier: MIT
// The linux host stack (host.stack: linux, host/net) on the real drivers: every byte
// arrives, the TSQ budget comes back when the real driver frees the skb (wilc1000
// tx_complete_fn, ks8851 after the TXQ write), and the qdisc stops and restarts with the
// driver's own netif_stop_queue/netif_wake_queue.
#include <gtest/gtest.h>

#include "tests/system/ks8851_system_support.h"
#include "tests/system/system_test_support.h"
#include "kernel/include/lx_kit/lx_emul_api.h"

using namespace nicsim;
using namespace nicsim::test;

namespace {

TEST(LinuxStack, WilcSpiTxDeliversEveryByteAndTheDriverReturnsTheTsqBudget) {
    const auto l =
        load_shipped("wilc1000-spi-ttcp-tx.yaml",
                     {"host.stack=linux", "traffic.bytes=1MiB", "driver.power_save=false"});
    wilc1000_spi_test_system sys("system", l.scenario, l.platform);
    const auto r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    ASSERT_EQ(r.flows.size(), 1u);
    EXPECT_EQ(r.flows[0].bytes, 1u << 20);
    EXPECT_GT(r.flows[0].goodput_bps, 0.0);
    const auto* flow = sys.traffic().linux_flow();
    ASSERT_NE(flow, nullptr);
    const auto& sock = flow->sender_socket();
    // One skb per frame (no GSO below a non-TSO driver), each freed by the driver's TX path.
    EXPECT_GE(sock.skb_frees(), sock.stats().segments_sent);
    EXPECT_EQ(sock.wmem_alloc(), 0u) << "every skb the driver took came back";
    EXPECT_EQ(sock.stats().pattern_errors, 0u);
    const auto st = netdev_state(sys);
    EXPECT_EQ(st.tx_packets, sys.traffic().board_stack().frames_transmitted());
    // The report's TX batches: VMM allocations the firmware granted, several frames each.
    const auto& d = r.devices.at(0);
    ASSERT_TRUE(d.tx_batches.has_value());
    EXPECT_EQ(*d.tx_batches,
              sys.chip().core.stats().vmm_alloc_requests - sys.chip().core.stats().vmm_alloc_full);
    ASSERT_TRUE(report::frames_per_tx_batch(d).has_value());
    EXPECT_GT(*report::frames_per_tx_batch(d), 1.0);
    // The report's skbs_in_flight is the emulation's live count: after 1 MiB, only what the
    // driver and the stack still hold, not one per frame sent.
    EXPECT_EQ(r.skbs_in_flight, lx_emul_skb_live_count());
    EXPECT_LT(r.skbs_in_flight, 64u);
}

TEST(LinuxStack, Ks8851SpiTxStopsAndWakesTheQdiscWithTheDriversQueue) {
    // sk_pacing_shift 2 lets TSQ put far more than the KS8851's 6 KB TX FIFO below TCP, so the
    // driver's ks8851_start_xmit runs out of TX space, stops the queue and returns BUSY; its
    // TX-done interrupt wakes it again.
    const auto l = ks_load("ks8851-spi-iperf-tx.yaml", {"host.stack=linux", "traffic.bytes=1MiB",
                                                        "host.net.sk_pacing_shift=2"});
    ks8851_test_system sys("system", l.scenario, l.platform);
    const auto r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    ASSERT_EQ(r.flows.size(), 1u);
    EXPECT_EQ(r.flows[0].bytes, 1u << 20);
    const auto& stack = sys.traffic().board_stack();
    EXPECT_GT(stack.xmit_busy(), 0u) << "the driver refused frames while its FIFO was full";
    EXPECT_EQ(stack.qdisc_drops(), 0u);
    const auto& sock = sys.traffic().linux_flow()->sender_socket();
    EXPECT_EQ(sock.wmem_alloc(), 0u);
    EXPECT_FALSE(r.devices.at(0).tx_batches.has_value()) << "the KS8851 takes frames one by one";
}

TEST(LinuxStack, FqCodelOnTheBoardDropsWhatWaitsBehindTheKs8851sStoppedQueue) {
    // As above, but with TSQ out of the way entirely: the qdisc holds what the stopped driver
    // queue does not take. fq_codel's CoDel drops once that wait stays above 5 ms for 100 ms;
    // every byte still arrives (TCP retransmits) and nothing is left charged to the socket.
    const auto l =
        ks_load("ks8851-spi-iperf-tx.yaml",
                {"host.stack=linux", "traffic.bytes=4MiB", "host.net.qdisc=fq_codel",
                 "host.net.sk_pacing_shift=0", "host.net.tcp_limit_output_bytes=4194304"});
    ks8851_test_system sys("system", l.scenario, l.platform);
    const auto r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    ASSERT_EQ(r.flows.size(), 1u);
    EXPECT_EQ(r.flows[0].bytes, 4u << 20);
    const auto& stack = sys.traffic().board_stack();
    EXPECT_GT(stack.xmit_busy() + stack.qdisc().requeues(), 0u);
    EXPECT_GT(stack.qdisc_drops(), 0u) << "CoDel dropped at dequeue";
    const auto& sock = sys.traffic().linux_flow()->sender_socket();
    EXPECT_GE(sock.stats().retransmits, stack.qdisc_drops());
    EXPECT_EQ(sock.wmem_alloc(), 0u) << "a dropped skb's destructor returned its budget";
    EXPECT_EQ(stack.qdisc().backlog_packets(), 0u);
}

TEST(LinuxStack, ParallelStreamsShareTheBytesAndEachIsItsOwnConnection) {
    // iperf3 -P 4: four connections, from the board's port + k to the peer's one port, share the
    // 4 MiB budget; every byte arrives on the stream it was written to, in order.
    const auto l = ks_load("ks8851-spi-iperf-tx.yaml",
                           {"host.stack=linux", "traffic.bytes=4MiB", "traffic.streams=4"});
    ks8851_test_system sys("system", l.scenario, l.platform);
    const auto r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    ASSERT_EQ(r.flows.size(), 4u);
    const auto& flow = *sys.traffic().linux_flow();
    ASSERT_EQ(flow.streams(), 4u);
    std::uint64_t sum = 0;
    double longest = 0;
    for (std::size_t k = 0; k < 4; ++k) {
        const auto& f = r.flows[k];
        EXPECT_EQ(f.name, "tcp." + std::to_string(k));
        EXPECT_GT(f.bytes, 0u) << f.name;
        EXPECT_EQ(f.bytes, flow.result(k).bytes_written) << "read = written on " << f.name;
        EXPECT_EQ(flow.result(k).pattern_errors, 0u) << f.name;
        sum += f.bytes;
        longest = std::max(longest, f.active_time_s);
    }
    EXPECT_EQ(sum, 4u << 20);
    const auto t = report::compute_totals(r);
    EXPECT_DOUBLE_EQ(t.goodput_bps, (4u << 20) * 8.0 / longest);
    EXPECT_EQ(sys.traffic().linux_flow()->sender_socket().wmem_alloc(), 0u);
}

TEST(LinuxStack, Ks8851SpiRxRunsTheBoardAsReceiver) {
    const auto l = ks_load("ks8851-spi-iperf-rx.yaml", {"host.stack=linux", "traffic.bytes=1MiB"});
    ks8851_test_system sys("system", l.scenario, l.platform);
    const auto r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    ASSERT_EQ(r.flows.size(), 1u);
    EXPECT_EQ(r.flows[0].bytes, 1u << 20);
    EXPECT_GT(sys.traffic().board_stack().frames_received(), 700u) << "1 MiB in 1448-byte segments";
    EXPECT_EQ(sys.traffic().linux_flow()->sender_socket().stats().pattern_errors, 0u);
}

} // namespace
