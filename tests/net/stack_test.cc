// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "host/net/netstack_harness.h"
#include "host/net/rx_latency.h"
#include "host/net/shaped_link.h"
#include "host/net/tsq.h"
#include "test_driver.h"

using namespace nicsim::net;
using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;

TEST(Tsq, BudgetComesBackWhenTheDriverFreesTheSkbAndNotBefore) {
    host_stack_config c;
    c.net.tcp_limit_output_bytes = 5000; // < 3 skbs of 2282 bytes truesize
    c.net.gso = false;                   // one skb per segment
    host_stack h("h", c);
    test::holding_driver d;
    d.stack = &h;
    h.attach(d.port());
    auto& s = h.open_tcp({test::addr_a(), test::addr_b(), 1, 0, 0, true, -1});
    const std::uint64_t ts = s.segment_truesize();
    ASSERT_EQ(ts, 1514u + 768u);
    sc_core::sc_spawn([&] { h.write(s, 100000); });
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_time(1, SC_MS));
        // No srtt yet: sk_pacing_rate is unlimited, so the limit is tcp_limit_output_bytes;
        // tcp_write_xmit sends while sk_wmem_alloc <= 5000: 0, 2282, 4564 -> three skbs.
        EXPECT_EQ(s.tsq_limit_now(), 5000u);
        EXPECT_EQ(s.stats().segments_sent, 3u);
        EXPECT_EQ(d.held.size(), 3u);
        EXPECT_EQ(s.wmem_alloc(), 3 * ts);
        EXPECT_GE(s.stats().tsq_throttled, 1u);
        sc_core::wait(sc_time(5, SC_MS));
        EXPECT_EQ(s.stats().segments_sent, 3u); // nothing comes back while the driver holds them
        d.complete_one();                       // the driver copied one into the chip and freed it
        EXPECT_EQ(s.wmem_alloc(), 2 * ts);      // returned at once, by the destructor
        sc_core::wait(sc_time(1, SC_US));
        EXPECT_EQ(s.stats().segments_sent, 4u); // the TSQ handler sent the next one
        EXPECT_EQ(s.wmem_alloc(), 3 * ts);
        while (!d.held.empty())
            d.complete_one();
        sc_core::wait(sc_time(1, SC_US));
        EXPECT_EQ(s.stats().segments_sent, 7u);
        EXPECT_EQ(s.skb_frees(), 4u);
    });
    sc_core::sc_start(sc_time(20, SC_MS));
}

TEST(Tsq, SkWmemAllocStartsAtOneSoTwoSkbsFillALimitOfTwoTruesizes) {
    // sock.c sk_alloc: refcount_set(&sk->sk_wmem_alloc, 1); tcp_small_queue_check stops once
    // that refcount exceeds the limit. With the limit at exactly 2 * truesize, two one-segment
    // skbs make it 1 + 2 * truesize > limit: the third waits (a count from 0 let it through).
    host_stack_config c;
    c.net.gso = false;
    c.net.tcp_limit_output_bytes = 2 * (1514 + 768);
    host_stack h("h", c);
    test::holding_driver d;
    d.stack = &h;
    h.attach(d.port());
    auto& s = h.open_tcp({test::addr_a(), test::addr_b(), 1, 0, 0, true, -1});
    sc_core::sc_spawn([&] { h.write(s, 100000); });
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_time(1, SC_MS));
        EXPECT_EQ(s.tsq_limit_now(), 2 * s.segment_truesize());
        EXPECT_EQ(d.held.size(), 2u);
        EXPECT_EQ(s.stats().segments_sent, 2u);
    });
    sc_core::sc_start(sc_time(5, SC_MS));
}

TEST(Gso, OneSkbPerAutosizedBurstSplitBeforeTheDriverWithTheBudgetMovedToTheSegments) {
    host_stack_config c; // gso on (Linux: software GSO for every TCP socket)
    host_stack h("h", c);
    test::holding_driver d;
    d.stack = &h;
    h.attach(d.port()); // a driver without NETIF_F_TSO: the stack segments
    auto& s = h.open_tcp({test::addr_a(), test::addr_b(), 1, 0, 0, true, -1});
    sc_core::sc_spawn([&] { h.write(s, 100000); });
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_time(1, SC_MS));
        // No pacing rate yet: tcp_tso_autosize allows gso_max_size (45 segments); the initial
        // cwnd of 10 makes it one skb of 10 segments: truesize = payload + one header + overhead.
        EXPECT_EQ(s.tso_segs(), 65536u / 1448u);
        EXPECT_EQ(s.last_skb_truesize(), 10u * 1448u + 66u + 768u);
        // The driver saw 10 single-frame skbs, in order ...
        ASSERT_EQ(d.held.size(), 10u);
        for (const auto& k : d.held)
            EXPECT_FALSE(k->is_gso());
        for (std::size_t i = 1; i < d.seqs.size(); ++i)
            EXPECT_EQ(d.seqs[i] - d.seqs[i - 1], 1448u);
        // ... each holding its own truesize of the budget (tcp_gso_segment's delta).
        EXPECT_EQ(s.wmem_alloc(), 10u * (1514u + 768u));
        d.complete_one();
        EXPECT_EQ(s.wmem_alloc(), 9u * (1514u + 768u));
        while (!d.held.empty())
            d.complete_one();
        EXPECT_EQ(s.wmem_alloc(), 0u);
    });
    sc_core::sc_start(sc_time(5, SC_MS));
}

TEST(StackCosts, EachNamedPartIsChargedInItsContext) {
    host_stack_config c;
    c.costs.per_syscall = sc_time(5, SC_US);
    c.costs.per_byte_copied = sc_time(1, sc_core::SC_NS);
    c.costs.per_segment_sent = sc_time(2, SC_US);
    c.costs.per_skb_alloc = sc_time(3, SC_US);
    c.costs.per_skb_free = sc_time(7, SC_US);
    host_stack h("h", c);
    sc_time process = sc_core::SC_ZERO_TIME, softirq = sc_core::SC_ZERO_TIME;
    h.set_cpu_cost([&](sc_time t, cpu_context k) {
        (k == cpu_context::process ? process : softirq) += t;
        sc_core::wait(t); // the work takes its time on the caller's core
    });
    test::holding_driver d;
    d.stack = &h;
    h.attach(d.port());
    auto& s = h.open_tcp({test::addr_a(), test::addr_b(), 1, 0, 0, true, -1});
    sc_core::sc_spawn([&] { h.write(s, 100000); }); // blocks: no ACKs ever come
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_time(1, SC_MS));
        // write(): one syscall, then the bytes that fit sk_sndbuf (87040, rounded up to whole
        // segments: 61 * 1448), copied.
        EXPECT_EQ(s.stats().bytes_written, 61u * 1448u);
        EXPECT_EQ(process, sc_time(5, SC_US) + sc_time(61.0 * 1448, sc_core::SC_NS));
        // One GSO skb of 10 segments: one allocation, ten segments' work.
        EXPECT_EQ(s.stats().segments_sent, 10u);
        EXPECT_EQ(softirq, sc_time(3, SC_US) + 10 * sc_time(2, SC_US));
        while (!d.held.empty())
            d.complete_one();
        sc_core::wait(sc_time(1, SC_MS));
        // Ten segment skbs freed by the driver.
        EXPECT_EQ(softirq, sc_time(3 + 20 + 70, SC_US));
    });
    sc_core::sc_start(sc_time(5, SC_MS));
}

TEST(Gso, TsoAutosizeFollowsPacingRateAndMinRtt) {
    // 12 Mbit/s-ish pacing (1.8 MB/s) >> 10 = 1757 B, min_rtt 2 ms >> 9 = 3: + 65536 >> 3.
    EXPECT_EQ(tso_autosize(1800000, 10, 2000, 9, 65536, 65535, 1448, 2),
              (1800000u / 1024u + 65536u / 8u) / 1448u);
    // Long RTT: the min_rtt term vanishes (>> 32 or more), the minimum of 2 segments holds.
    EXPECT_EQ(tso_autosize(1800000, 10, 100000000, 9, 65536, 65535, 1448, 2), 2u);
    // Fast: capped by gso_max_size, then gso_max_segs.
    EXPECT_EQ(tso_autosize(1250000000, 10, 100000000, 9, 65536, 65535, 1448, 2), 65536u / 1448u);
    EXPECT_EQ(tso_autosize(1250000000, 10, 100000000, 9, 65536, 16, 1448, 2), 16u);
}

namespace {

// Two stacks over an unshaped link pair with a fixed one-way delay; A sends 64-byte requests,
// B echoes them, A times each exchange (a ping over TCP: the same stack paths as ICMP echo
// would take, softirq receive and application wake-up on both hosts).
std::vector<double> ping_rtts_us(const latency_spec& jitter, int count,
                                 bool netif_rx_in_caller = false) {
    host_stack_config c;
    c.net.netif_rx_in_caller = netif_rx_in_caller;
    c.irq_to_thread = jitter;
    c.sched_wakeup = jitter;
    c.seed = 42;
    static int run = 0;
    const std::string p = "p" + std::to_string(run++);
    auto* a = new host_stack((p + "a").c_str(), c);
    auto* b = new host_stack((p + "b").c_str(), c);
    auto* ab = new shaped_link((p + "ab").c_str(), 0.0, sc_time(500, SC_US));
    auto* ba = new shaped_link((p + "ba").c_str(), 0.0, sc_time(500, SC_US));
    a->attach(ab->port());
    b->attach(ba->port());
    ab->wake = [a] { a->netif_wake_queue(); };
    ba->wake = [b] { b->netif_wake_queue(); };
    ab->sink = [b](const std::uint8_t* d, std::size_t n) { b->netif_rx(d, n); };
    ba->sink = [a](const std::uint8_t* d, std::size_t n) { a->netif_rx(d, n); };
    auto& sa = a->open_tcp({test::addr_a(), test::addr_b(), 3, 0, 0, true, -1});
    auto& sb = b->open_tcp({test::addr_b(), test::addr_a(), 3, 0, 0, false, -1});
    // Shared with the spawned thread: the thread's process object may outlive this call.
    auto rtts = std::make_shared<std::vector<double>>();
    sc_core::sc_spawn([=, &sa] {
        for (int i = 0; i < count; ++i) {
            const auto t0 = sc_core::sc_time_stamp();
            a->write(sa, 64);
            std::uint64_t got = 0;
            while (got < 64)
                got += a->read(sa, 64 - got);
            rtts->push_back((sc_core::sc_time_stamp() - t0).to_seconds() * 1e6);
            sc_core::wait(sc_time(10, SC_MS)); // ping -i 0.01
        }
    });
    sc_core::sc_spawn([=, &sb] {
        for (;;) {
            std::uint64_t got = 0;
            while (got < 64)
                got += b->read(sb, 64 - got);
            b->write(sb, 64);
        }
    });
    sc_core::sc_start(sc_time(12.0 * count + 100, SC_MS));
    EXPECT_EQ(sa.stats().pattern_errors + sb.stats().pattern_errors, 0u);
    return *rtts;
}

struct summary {
    double min, avg, max, mdev;
};

summary summarise(const std::vector<double>& v) {
    // ping's mdev: sqrt(mean(x^2) - mean(x)^2).
    double lo = v.front(), hi = v.front(), sum = 0, sq = 0;
    for (double x : v) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        sum += x;
        sq += x * x;
    }
    const double n = static_cast<double>(v.size());
    const double avg = sum / n;
    return {lo, avg, hi, std::sqrt(std::max(0.0, sq / n - avg * avg))};
}

} // namespace

TEST(PingOverStack, JitterGivesMinBelowAvgBelowMaxAndPositiveMdev) {
    latency_spec j;
    j.median = sc_time(30, SC_US);
    j.p99 = sc_time(150, SC_US);
    const auto v = ping_rtts_us(j, 100);
    ASSERT_EQ(v.size(), 100u);
    const auto s = summarise(v);
    EXPECT_LT(s.min, s.avg);
    EXPECT_LT(s.avg, s.max);
    EXPECT_GT(s.mdev, 1.0); // microseconds
    // Four latencies per exchange (two softirqs, two wake-ups) on top of 1 ms of wire delay.
    EXPECT_GT(s.min, 1000.0);
    EXPECT_NEAR(s.avg, 1000.0 + 4 * 30.0 * std::exp(0.5 * std::pow(std::log(5.0) / 2.326, 2)),
                60.0);
}

TEST(PingOverStack, NoJitterGivesIdenticalRtts) {
    const auto v = ping_rtts_us(latency_spec{}, 50);
    ASSERT_EQ(v.size(), 50u);
    const auto s = summarise(v);
    EXPECT_DOUBLE_EQ(s.min, s.max);
    EXPECT_DOUBLE_EQ(s.min, 1000.0);
    EXPECT_EQ(s.mdev, 0.0);
}

// netif_rx_in_caller: the link's delivering thread runs the softirq work itself (Linux >= 5.18
// netif_rx), so an exchange pays the two application wake-ups but not the two softirq wake-ups:
// with fixed 30 us latencies 1000 + 2 * 30 us instead of 1000 + 4 * 30 us (one simulation per
// process: two tests).
namespace {
void expect_fixed_rtt(bool netif_rx_in_caller, double rtt_us) {
    latency_spec fixed;
    fixed.median = fixed.p99 = sc_time(30, SC_US);
    const auto v = ping_rtts_us(fixed, 20, netif_rx_in_caller);
    ASSERT_EQ(v.size(), 20u);
    const auto s = summarise(v);
    EXPECT_DOUBLE_EQ(s.min, s.max);
    EXPECT_NEAR(s.min, rtt_us, 1e-6);
}
} // namespace

TEST(PingOverStack, SoftirqThreadPaysTheIrqToThreadLatency) {
    expect_fixed_rtt(false, 1120.0);
}

TEST(PingOverStack, NetifRxInCallerSkipsTheSoftirqWakeUp) {
    expect_fixed_rtt(true, 1060.0);
}

// rx_latency (ping/UDP endpoints): a frame from a thread reaches the endpoint after the softirq
// wake-up and the task's wake-up, or after the task's wake-up only with netif_rx_in_caller.
namespace {
void expect_rx_delivery_after(bool softirq_in_caller, sc_time expected) {
    latency_spec irq, wake;
    irq.median = irq.p99 = sc_time(20, SC_US);
    wake.median = wake.p99 = sc_time(15, SC_US);
    auto delivered = std::make_shared<sc_time>(sc_core::SC_ZERO_TIME);
    auto* rx = new rx_latency(
        "rx", 1, irq, wake,
        [delivered](const std::uint8_t*, std::size_t) { *delivered = sc_core::sc_time_stamp(); },
        softirq_in_caller);
    sc_core::sc_spawn([rx] {
        sc_core::wait(sc_time(1, SC_MS));
        const std::uint8_t frame[60] = {};
        rx->receive(frame, sizeof frame);
    });
    sc_core::sc_start(sc_time(2, SC_MS));
    EXPECT_EQ(*delivered, sc_time(1, SC_MS) + expected);
}
} // namespace

TEST(RxLatency, FrameWaitsSoftirqAndTaskWakeUp) {
    expect_rx_delivery_after(false, sc_time(35, SC_US));
}

TEST(RxLatency, SoftirqInCallerLeavesTheTaskWakeUpOnly) {
    expect_rx_delivery_after(true, sc_time(15, SC_US));
}

// The socket lock (tcp_socket::lock_sock): a reader does not take a segment's data while the
// softirq that received it still processes it (here: the ACK it sends costs CPU time), so it
// is never woken for data it already read - as in Linux, where tcp_recvmsg's lock_sock waits
// for the softirq's bh_lock_sock.
TEST(SocketLock, AReaderIsNeverWokenWithNothingToRead) {
    harness_config c;
    c.rate_bps = 100e6;
    c.delay = sc_time(1, SC_MS);
    c.total_bytes = 4000000;
    c.read_size = 1448; // small reads: the reader sleeps between most segments
    c.receiver.net.netif_rx_in_caller = true;
    c.receiver.costs.per_segment_recv = sc_time(8, SC_US);
    c.receiver.costs.per_ack_sent = sc_time(40, SC_US);
    c.receiver.costs.per_skb_alloc = sc_time(3, SC_US);
    c.receiver.costs.per_byte_copied = sc_time(10, sc_core::SC_NS);
    c.receiver.costs.per_syscall = sc_time(20, SC_US);
    latency_spec wake;
    wake.median = sc_time(15, SC_US);
    wake.p99 = sc_time(80, SC_US);
    c.receiver.sched_wakeup = wake;
    netstack_harness h("lock", c);
    h.receiver().set_cpu_cost([](sc_time t, cpu_context) { nicsim::local_time::advance(t); });
    sc_core::sc_start(sc_time(3, sc_core::SC_SEC));
    EXPECT_EQ(h.result().bytes_read, c.total_bytes);
    EXPECT_GT(h.receiver().read_wakeups(), 100u);
    EXPECT_EQ(h.receiver().empty_read_wakeups(), 0u);
}
