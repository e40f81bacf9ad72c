// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "host/net/jitter.h"

using namespace nicsim::net;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

latency_spec spec() {
    latency_spec l;
    l.median = sc_time(20, SC_US);
    l.p99 = sc_time(80, SC_US);
    return l;
}

std::vector<sc_time> draw(std::uint64_t seed, const std::string& name, int n) {
    latency_stream s(seed, name, spec());
    std::vector<sc_time> v;
    for (int i = 0; i < n; ++i)
        v.push_back(s.sample());
    return v;
}

} // namespace

TEST(Jitter, SameSeedSameSamplesDifferentSeedDifferentSamples) {
    const auto a = draw(7, "host.irq_to_thread", 1000);
    EXPECT_EQ(a, draw(7, "host.irq_to_thread", 1000));
    const auto b = draw(8, "host.irq_to_thread", 1000);
    EXPECT_NE(a, b);
    int same = 0;
    for (int i = 0; i < 1000; ++i)
        same += a[i] == b[i];
    EXPECT_LT(same, 10); // not a shifted copy either
    // Streams are independent: another name gives another sequence, and drawing from one
    // stream does not move another.
    EXPECT_NE(a, draw(7, "host.sched_wakeup", 1000));
    latency_stream x(7, "host.irq_to_thread", spec()), y(7, "host.sched_wakeup", spec());
    for (int i = 0; i < 500; ++i)
        y.sample();
    for (int i = 0; i < 1000; ++i)
        ASSERT_EQ(x.sample(), a[i]);
}

TEST(Jitter, LogNormalHasTheNamedMedianAndP99) {
    auto v = draw(1, "q", 200000);
    std::sort(v.begin(), v.end());
    const double med = v[v.size() / 2].to_seconds() * 1e6;
    const double p99 = v[v.size() * 99 / 100].to_seconds() * 1e6;
    EXPECT_NEAR(med, 20.0, 0.4);
    EXPECT_NEAR(p99, 80.0, 2.0);
    EXPECT_GT(v.front(), sc_core::SC_ZERO_TIME);
    // Off: always zero.
    latency_stream off(1, "off", latency_spec{});
    EXPECT_EQ(off.sample(), sc_core::SC_ZERO_TIME);
    latency_spec bad = spec();
    bad.p99 = sc_time(10, SC_US);
    EXPECT_THROW(latency_stream(1, "bad", bad), std::invalid_argument);
}

// Preemption by higher-priority work: a share of the samples waits the rest of a burst, uniform
// in [0, burst], on top of the unchanged log-normal body (its own generator).
TEST(Jitter, PreemptionAddsAUniformTailToAShareOfTheSamples) {
    const int n = 200000;
    latency_spec p = spec();
    p.preempt_share = 0.01;
    p.preempt_burst = sc_time(1000, SC_US);
    latency_stream body(3, "k", spec()), tailed(3, "k", p);
    int hits = 0;
    double extra_sum = 0, extra_max = 0;
    for (int i = 0; i < n; ++i) {
        const double extra = (tailed.sample() - body.sample()).to_seconds() * 1e6;
        ASSERT_GE(extra, 0.0);
        ASSERT_LE(extra, 1000.0);
        if (extra > 0) {
            ++hits;
            extra_sum += extra;
            extra_max = std::max(extra_max, extra);
        }
    }
    EXPECT_NEAR(hits / double(n), 0.01, 0.001);       // share of samples that wait
    EXPECT_NEAR(extra_sum / hits, 500.0, 25.0);       // uniform in [0, burst]: mean burst / 2
    EXPECT_GT(extra_max, 990.0);                      // and reaching the burst's length
    // Share or burst zero: the stream is the log-normal alone.
    latency_spec half = spec();
    half.preempt_share = 0.5;
    latency_stream a(3, "k", half), b(3, "k", spec());
    for (int i = 0; i < 1000; ++i)
        ASSERT_EQ(a.sample(), b.sample());
    latency_spec bad = spec();
    bad.preempt_share = 1.0;
    EXPECT_THROW(latency_stream(1, "bad", bad), std::invalid_argument);
}
