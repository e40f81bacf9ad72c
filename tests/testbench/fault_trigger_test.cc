// SPDX-License-Identifier: MIT
// The trigger semantics of a scheduled fault (sim/faults/fault_plan.h, docs/faults.md):
// at / after / for / count / probability, on hand-made opportunities (no simulation runs).
#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "sim/faults/fault_plan.h"

namespace {

using nicsim::config::fault_config;
using nicsim::config::parse_duration;
using nicsim::faults::scheduled_fault;
using sc_core::SC_MS;
using sc_core::sc_time;

sc_time ms(double v) {
    return sc_time(v, SC_MS);
}

fault_config event(const char* unit = "frames") {
    fault_config c;
    c.kind = "rx_overrun";
    c.unit = unit;
    return c;
}

TEST(FaultTrigger, PlainTriggerHitsTheFirstOpportunityOnce) {
    scheduled_fault f(event(), 1, 0);
    EXPECT_TRUE(f.fires(ms(1)));
    EXPECT_FALSE(f.fires(ms(2)));
    const auto r = f.to_report();
    EXPECT_EQ(r.injected, 1u);
    EXPECT_EQ(r.opportunities, 2u);
    EXPECT_EQ(r.trigger, "from the start");
}

TEST(FaultTrigger, AtOpensTheWindowAtThatTime) {
    fault_config c = event();
    c.at = parse_duration("10ms");
    scheduled_fault f(c, 1, 0);
    EXPECT_FALSE(f.fires(ms(9.999)));
    EXPECT_TRUE(f.fires(ms(10)));
    EXPECT_FALSE(f.fires(ms(11)));
    EXPECT_DOUBLE_EQ(*f.to_report().first_s, 0.010);
}

TEST(FaultTrigger, AfterCountsOpportunities) {
    fault_config c = event();
    c.after = 3;
    scheduled_fault f(c, 1, 0);
    for (int i = 0; i < 3; ++i)
        EXPECT_FALSE(f.fires(ms(i)));
    EXPECT_TRUE(f.fires(ms(3))); // the 4th
    EXPECT_EQ(f.to_report().trigger, "after 3 frames");
}

TEST(FaultTrigger, ForHitsEveryOpportunityInTheWindowAndCountLimitsIt) {
    fault_config c = event();
    c.after = 1;
    c.window = parse_duration("5ms");
    scheduled_fault f(c, 1, 0);
    EXPECT_FALSE(f.fires(ms(0)));
    EXPECT_TRUE(f.fires(ms(10))); // opens at 10 ms, until 15 ms
    EXPECT_TRUE(f.fires(ms(12)));
    EXPECT_TRUE(f.fires(ms(14.9)));
    EXPECT_FALSE(f.fires(ms(15)));
    EXPECT_EQ(f.to_report().injected, 3u);

    c.count = 2;
    scheduled_fault g(c, 1, 0);
    g.fires(ms(0));
    EXPECT_TRUE(g.fires(ms(10)));
    EXPECT_TRUE(g.fires(ms(11)));
    EXPECT_FALSE(g.fires(ms(12)));
}

TEST(FaultTrigger, ProbabilityIsSeededPerFault) {
    fault_config c = event();
    c.probability = 0.3;
    auto hits = [&](std::uint64_t seed, std::size_t index) {
        scheduled_fault f(c, seed, index);
        std::vector<bool> v;
        for (int i = 0; i < 200; ++i)
            v.push_back(f.fires(ms(i)));
        return v;
    };
    const auto a = hits(1, 0);
    EXPECT_EQ(a, hits(1, 0));
    EXPECT_NE(a, hits(2, 0));
    EXPECT_NE(a, hits(1, 1));
    const auto n = std::count(a.begin(), a.end(), true);
    EXPECT_GT(n, 30);
    EXPECT_LT(n, 90);
}

TEST(FaultTrigger, WindowFaultIsActiveFromAtForItsLength) {
    fault_config c;
    c.kind = "link_down";
    c.level = true;
    c.at = parse_duration("100ms");
    c.window = parse_duration("20ms");
    scheduled_fault f(c, 1, 0);
    EXPECT_FALSE(f.active(ms(99)));
    EXPECT_TRUE(f.active(ms(100)));
    EXPECT_TRUE(f.active(ms(119.9)));
    EXPECT_FALSE(f.active(ms(120)));
    f.effect(ms(100), "link went down");
    f.effect(ms(120), "link came back up");
    const auto r = f.to_report();
    EXPECT_EQ(r.injected, 2u); // a window fault counts what it did
    EXPECT_EQ(r.trigger, "at 100ms, for 20ms");
    ASSERT_EQ(r.effects.size(), 2u);
}

TEST(FaultTrigger, DriverLinesCountOnlyAfterTheFirstInjection) {
    fault_config c = event();
    c.at = parse_duration("10ms");
    scheduled_fault f(c, 1, 0);
    f.driver_line(ms(5), "before");
    f.fires(ms(10));
    f.driver_line(ms(11), "after");
    f.driver_line(ms(12), "after");
    const auto r = f.to_report();
    EXPECT_EQ(r.driver_errors, 2u);
    ASSERT_EQ(r.driver_lines.size(), 1u);
    EXPECT_EQ(r.driver_lines[0].first, "after");
    EXPECT_EQ(r.driver_lines[0].second, 2u);
}

} // namespace
