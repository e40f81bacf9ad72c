// SPDX-License-Identifier: MIT
#include <algorithm>

#include <gtest/gtest.h>

#include "host/net/netstack_harness.h"

using namespace nicsim::net;
using sc_core::SC_MS;
using sc_core::SC_SEC;
using sc_core::sc_time;

namespace {

constexpr std::uint64_t hdr = 14 + 20 + 20 + 12; // Ethernet + IPv4 + TCP + timestamps

// 1 Gbit/s, 20 ms, and a receive buffer that never limits: only slow start shapes the first
// rounds.
harness_config slow_start_link() {
    harness_config c;
    c.rate_bps = 1e9;
    c.delay = sc_time(20, SC_MS);
    c.receiver.net.tcp_rmem = {4096, 6291456, 6291456};
    return c;
}

} // namespace

TEST(Harness, SlowStartDoublesCwndEveryRound) {
    netstack_harness h("h", slow_start_link());
    sc_core::sc_start(sc_time(400, SC_MS));
    const auto r = h.result();
    ASSERT_GE(r.cwnd_per_rtt.size(), 6u);
    EXPECT_EQ(r.cwnd_per_rtt[0], 20u); // TCP_INIT_CWND 10, every segment acked once
    for (std::size_t i = 1; i < 6; ++i)
        EXPECT_EQ(r.cwnd_per_rtt[i], 2 * r.cwnd_per_rtt[i - 1]) << "round " << i;
    EXPECT_EQ(r.retransmits, 0u);
}

TEST(Harness, TsqKeepsTheShaperBacklogAtTheLimitAndSetsCwndGrowth) {
    // 12 Mbit/s, 1 ms: pacing rate >> 10 is below 2 * truesize, so TSQ allows about two skbs
    // below TCP plus the one being sent - the backlog tc would show stays at ~3 packets, the
    // flow is not cwnd-limited and cwnd stops at twice the packets it ever had out.
    harness_config c;
    c.sender.net.gso = false; // one skb per segment (ethtool -K veth gso off tso off)
    netstack_harness h("h", c);
    sc_core::sc_start(sc_time(3, SC_SEC));
    const auto r = h.result();
    const std::uint64_t ts = h.sender_socket().segment_truesize();
    EXPECT_EQ(r.tsq_limit_bytes, std::max<std::uint64_t>(2 * ts, r.pacing_rate_Bps >> 10));
    EXPECT_LE(r.wmem_alloc_mean, static_cast<double>(r.tsq_limit_bytes + ts));
    EXPECT_GT(r.tsq_throttled, 1000u);
    EXPECT_NEAR(r.qdisc_backlog_pkts_mean, 3.0, 0.5);
    // Goodput: the link rate times payload / frame bytes.
    EXPECT_NEAR(r.goodput_steady_bps, 12e6 * 1448.0 / 1514.0, 0.01 * 12e6);
    EXPECT_EQ(r.retransmits, 0u);
}

TEST(Harness, WithGsoTsqCountsTwoAutosizedSkbs) {
    // Default GSO: at 12 Mbit/s and a 1 ms path tcp_tso_autosize builds ~6-segment skbs
    // (min_rtt >> 9 adds 64 KiB >> r), and TSQ's 2 * truesize lets about two of them wait in the
    // shaper: a far larger backlog than one skb per segment.
    harness_config c;
    netstack_harness h("h", c);
    sc_core::sc_start(sc_time(3, SC_SEC));
    const auto r = h.result();
    const auto& s = h.sender_socket();
    EXPECT_GE(s.tso_segs(), 2u);
    EXPECT_EQ(r.tsq_limit_bytes,
              std::max<std::uint64_t>(2ull * s.last_skb_truesize(), r.pacing_rate_Bps >> 10));
    EXPECT_LE(r.wmem_alloc_mean, static_cast<double>(r.tsq_limit_bytes + s.last_skb_truesize()));
    EXPECT_GT(r.qdisc_backlog_pkts_mean, 2.0 * s.tso_segs() - 1);
    EXPECT_NEAR(r.goodput_steady_bps, 12e6 * 1448.0 / 1514.0, 0.01 * 12e6);
    EXPECT_EQ(r.retransmits, 0u);
}

TEST(Harness, ReceiveWindowAutotuningOpensTheWindow) {
    harness_config tuned, fixed;
    tuned.rate_bps = fixed.rate_bps = 100e6;
    tuned.delay = fixed.delay = sc_time(10, SC_MS);
    fixed.receiver.net.tcp_moderate_rcvbuf = false;
    netstack_harness a("a", tuned), b("b", fixed);
    sc_core::sc_start(sc_time(3, SC_SEC));
    const auto ra = a.result(), rb = b.result();
    // Autotuned: sk_rcvbuf grew from tcp_rmem[1] and the advertised window with it.
    EXPECT_GT(ra.rcvbuf, 4u * 131072u);
    EXPECT_LE(ra.rcvbuf, 6291456u);
    EXPECT_GT(ra.rcv_wnd, 65160u);
    EXPECT_GT(ra.goodput_steady_bps, 0.9 * 100e6 * 1448 / 1514);
    // Fixed: the window stays at tcp_win_from_space(131072) = 64 KiB and goodput is bounded by
    // window / RTT (RTT >= 10 ms).
    EXPECT_EQ(rb.rcvbuf, 131072u);
    EXPECT_LE(rb.rcv_wnd, 65536u);
    EXPECT_LE(rb.goodput_steady_bps, 65536.0 * 8 / 0.010 * 1.02);
}

TEST(Harness, BytesAreConservedEndToEnd) {
    harness_config c;
    c.total_bytes = 3000000;
    netstack_harness h("h", c);
    sc_core::sc_start(sc_time(4, SC_SEC)); // the transfer needs ~2.1 s at 12 Mbit/s
    const auto r = h.result();
    const auto& tx = h.sender_socket().stats();
    const auto& rx = h.receiver_socket().stats();
    EXPECT_EQ(r.bytes_written, c.total_bytes);
    EXPECT_EQ(r.bytes_acked, c.total_bytes);
    EXPECT_EQ(r.bytes_read, c.total_bytes);
    EXPECT_EQ(rx.pattern_errors, 0u);
    EXPECT_EQ(rx.checksum_errors, 0u);
    // Every data frame that left the sender crossed the link, with its headers.
    EXPECT_EQ(r.link_frames, tx.segments_sent);
    ASSERT_EQ(r.retransmits, 0u);
    EXPECT_EQ(r.link_bytes, tx.segments_sent * hdr + c.total_bytes);
    EXPECT_EQ(rx.segments_received, tx.segments_sent);
    EXPECT_EQ(tx.acks_received, rx.acks_sent);
    // Nothing is left anywhere and every skb's destructor ran.
    EXPECT_TRUE(h.sender().qdisc().empty());
    EXPECT_EQ(h.sender_socket().wmem_alloc(), 0u);
    EXPECT_EQ(h.receiver_socket().wmem_alloc(), 0u);
    EXPECT_EQ(h.receiver_socket().rmem_alloc(), 0u);
    // Delayed ACKs: quick-ack at the start (up to 16) and one more each time tcp_grow_window
    // opens the window (icsk_ack.quick |= 1); otherwise one ACK per two full segments.
    EXPECT_GE(rx.quick_acks, 1u);
    EXPECT_NEAR(static_cast<double>(rx.acks_sent), rx.segments_received / 2.0,
                static_cast<double>(rx.quick_acks + rx.delayed_acks + 2));
    EXPECT_LT(rx.acks_sent, rx.segments_received * 6 / 10);
}

namespace {
// 100 Mbit/s, 5 ms, 20 MB: long enough for a loss in the middle of congestion avoidance.
harness_config one_loss_link() {
    harness_config c;
    c.rate_bps = 100e6;
    c.delay = sc_time(5, SC_MS);
    c.total_bytes = 20000000;
    return c;
}
} // namespace

TEST(Harness, OneLostSegmentIsFastRetransmittedAndCubicBacksOff) {
    const harness_config c = one_loss_link();
    netstack_harness h("h", c);
    std::uint32_t cwnd_at_loss = 0;
    h.data_link().drop = [&](std::uint64_t i, const std::vector<std::uint8_t>&) {
        if (i == 3000)
            cwnd_at_loss = h.sender_socket().cc().cwnd;
        return i == 3000;
    };
    std::uint32_t ssthresh_after = 0;
    sc_core::sc_spawn([&] {
        while (h.sender_socket().stats().fast_retransmits == 0)
            sc_core::wait(sc_time(100, sc_core::SC_US));
        ssthresh_after = h.sender_socket().cc().ssthresh;
    });
    sc_core::sc_start(sc_time(4, SC_SEC));
    const auto r = h.result();
    EXPECT_EQ(r.fast_retransmits, 1u);
    EXPECT_EQ(r.timeouts, 0u);
    EXPECT_EQ(r.retransmits, 1u);
    EXPECT_EQ(r.bytes_read, c.total_bytes);
    EXPECT_EQ(h.receiver_socket().stats().pattern_errors, 0u);
    // CUBIC: ssthresh = cwnd * 717 / 1024 (cwnd a few ACKs after the loss: same up to growth
    // by the duplicate-ACK round, which does not grow cwnd).
    EXPECT_NEAR(ssthresh_after, cwnd_at_loss * 717.0 / 1024.0, 2.0);
}

// Karn's rule as tcp_clean_rtx_queue applies it (FLAG_RETRANS_DATA_ACKED): the ACK that fills a
// hole also covers the segments the receiver held out of order behind it, sent one recovery
// earlier; their send times must not become an RTT sample. Without the rule, every repaired
// loss inflated srtt and the RTO, and a long KS8851 RX run with RX overruns collapsed into
// exponentially backed-off timeouts (300 MB: stalled at 70 s of simulated time).
TEST(Harness, AnAckCoveringARetransmissionGivesNoRttSample) {
    netstack_harness h("h", one_loss_link());
    h.data_link().drop = [](std::uint64_t i, const std::vector<std::uint8_t>&) {
        return i == 3000;
    };
    std::uint64_t srtt_before = 0, srtt_max_after = 0;
    sc_core::sc_spawn([&] {
        while (h.sender_socket().stats().fast_retransmits == 0) {
            srtt_before = h.sender_socket().srtt_us();
            sc_core::wait(sc_time(10, sc_core::SC_US));
        }
        for (int i = 0; i < 5000; ++i) { // 50 ms: the repair and the ACKs after it
            srtt_max_after = std::max(srtt_max_after, h.sender_socket().srtt_us());
            sc_core::wait(sc_time(10, sc_core::SC_US));
        }
    });
    sc_core::sc_start(sc_time(4, SC_SEC));
    ASSERT_EQ(h.result().fast_retransmits, 1u);
    ASSERT_GT(srtt_before, 0u);
    EXPECT_LE(srtt_max_after, srtt_before + srtt_before / 50)
        << "srtt " << srtt_before << " us before the loss, up to " << srtt_max_after
        << " us after its repair";
}

TEST(Harness, RtoFiresWithTheTwoHundredMillisecondFloor) {
    harness_config c;
    c.rate_bps = 100e6;
    c.delay = sc_time(1, SC_MS);
    c.total_bytes = 10000000;
    netstack_harness h("h", c);
    // Lose everything for 30 ms: no duplicate ACKs, only the retransmission timer helps.
    h.data_link().drop = [](std::uint64_t, const std::vector<std::uint8_t>&) {
        const auto now = sc_core::sc_time_stamp();
        return now >= sc_time(100, SC_MS) && now < sc_time(130, SC_MS);
    };
    std::uint64_t timeouts_at_300ms = 0;
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_time(300, SC_MS)); // before the first RTO could have fired: >= 200 ms
        timeouts_at_300ms = h.sender_socket().stats().timeouts;
        sc_core::wait(sc_time(50, SC_MS)); // after it: 100 ms + srtt + 200 ms
        EXPECT_EQ(h.sender_socket().stats().timeouts, timeouts_at_300ms + 1);
    });
    sc_core::sc_start(sc_time(4, SC_SEC));
    const auto r = h.result();
    EXPECT_GE(r.timeouts, 1u);
    EXPECT_EQ(r.bytes_read, c.total_bytes);
    // RTO = srtt + max(4 mdev, tcp_rto_min): on a quiet path the floor dominates.
    EXPECT_GE(r.rto_us, 200000u + r.srtt_us);
    EXPECT_LT(r.rto_us, 200000u + r.srtt_us + 20000u);
    EXPECT_EQ(timeouts_at_300ms, 0u);
    EXPECT_EQ(r.timeouts, 1u);
}

// cwnd on the real-kernel reference's clock (bench/netns_tcp_reference.py: tcpi_snd_cwnd at
// k x base RTT): ten samples; at 1 Gbit/s and 20 ms slow start doubles cwnd once per base RTT,
// which the fixed clock sees as the round clock does, and before the first round ends cwnd
// is still below its end-of-round value.
TEST(Harness, CwndIsAlsoSampledOnTheReferencesFixedClock) {
    netstack_harness h("h", slow_start_link());
    sc_core::sc_start(sc_time(400, SC_MS));
    const auto r = h.result();
    ASSERT_EQ(r.cwnd_at_base_rtt.size(), 10u);
    ASSERT_GE(r.cwnd_per_rtt.size(), 6u);
    EXPECT_GE(r.cwnd_at_base_rtt[0], 10u); // IW10, and no more than a round's worth of ACKs
    EXPECT_LE(r.cwnd_at_base_rtt[0], r.cwnd_per_rtt[0]);
    for (std::size_t i = 1; i < 5; ++i)
        EXPECT_GT(r.cwnd_at_base_rtt[i], r.cwnd_at_base_rtt[i - 1]) << "sample " << i;
}

// As do_softirq, a receive round netif_rx runs in its caller wakes nobody afterwards: the
// receiver's own softirq thread (TCP's timers) runs only when such a round moved its next
// deadline earlier. Woken after every round, it ran at least one round per received frame.
TEST(Harness, AnInlineReceiveRoundWakesTheSoftirqThreadOnlyForAnEarlierDeadline) {
    harness_config c;
    c.rate_bps = 20e6;
    c.delay = sc_time(5, SC_MS);
    c.total_bytes = 4 * 1024 * 1024;
    c.receiver.net.netif_rx_in_caller = true;
    netstack_harness h("h", c);
    sc_core::sc_start(sc_time(3, SC_SEC));
    EXPECT_EQ(h.result().bytes_read, c.total_bytes);
    const host_stack& rx = h.receiver();
    ASSERT_GT(rx.frames_received(), 2000u);
    // The thread's rounds left are the ACK link's: a one-frame device queue, stopped while an
    // ACK is on it and woken (netif_wake_queue) when it has left, once per ACK.
    const std::uint64_t acks = h.receiver_socket().stats().acks_sent;
    EXPECT_LT(acks, rx.frames_received() * 6 / 10);
    EXPECT_LE(rx.softirq_thread_rounds(), acks + 10)
        << rx.softirq_thread_rounds() << " thread rounds for " << rx.frames_received()
        << " frames and " << acks << " ACKs";
}

TEST(Harness, FqCodelKeepsAQueueTsqDoesNotBoundNearItsTargetAtTheSameGoodput) {
    // With sk_pacing_shift 0 and a 4 MiB tcp_limit_output_bytes TSQ lets the whole cwnd wait
    // in the qdisc: pfifo_fast holds hundreds of packets and the RTT grows to half a second
    // (bufferbloat); fq_codel's CoDel drops until the sojourn time stays near its 5 ms target.
    auto link = [](const char* qdisc) {
        harness_config c;
        c.delay = sc_time(5, SC_MS);
        c.sender.net.sk_pacing_shift = 0;
        c.sender.net.tcp_limit_output_bytes = 4u << 20;
        c.sender.net.qdisc = qdisc;
        return c;
    };
    netstack_harness fifo("fifo", link("pfifo_fast"));
    netstack_harness fq("fq", link("fq_codel"));
    sc_core::sc_start(sc_time(6, SC_SEC));
    const auto a = fifo.result(), b = fq.result();
    EXPECT_GT(a.qdisc_backlog_pkts_mean, 100.0);
    EXPECT_GT(a.srtt_us, 200000u);
    EXPECT_EQ(a.qdisc_drops, 0u);
    EXPECT_LT(b.qdisc_backlog_pkts_mean, 15.0);
    EXPECT_LT(b.srtt_us, 30000u);
    EXPECT_GT(b.qdisc_drops, 0u);
    EXPECT_NEAR(b.goodput_steady_bps, a.goodput_steady_bps, 0.02 * a.goodput_steady_bps);
}

TEST(Harness, ASubMssTailIsSentWithoutWaitingForTheAckOfFullSegments) {
    // Minshall's Nagle (tcp_nagle_check): the last partial segment of a transfer goes out at once
    // when no other small segment is unacknowledged. The classic rule held it until every byte
    // before it was acknowledged, which the receiver's delayed ACK (40 ms) stretched whenever an
    // odd number of full segments was outstanding - one of two neighbouring sizes hits that.
    // And the receiver ACKs that small segment when its read drains the queue
    // (ICSK_ACK_PUSHED in tcp_cleanup_rbuf), not 40 ms later when the delayed ACK fires.
    auto link = [](std::uint64_t full) {
        harness_config c;
        c.total_bytes = full * 1448 + 688; // 16 MiB ends with 688 bytes too
        c.sender.net.gso = false;
        return c;
    };
    netstack_harness a("a", link(20)), b("b", link(21));
    // 21 frames of 1514 bytes take 21 ms at 12 Mbit/s, plus a 3 ms round trip: well done by 35 ms.
    sc_core::sc_start(sc_time(35, SC_MS));
    for (auto* h : {&a, &b}) {
        const auto r = h->result();
        EXPECT_EQ(r.bytes_acked, r.bytes_written) << h->name();
        EXPECT_EQ(r.bytes_read, r.bytes_written) << h->name();
    }
}
