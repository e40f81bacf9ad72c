// SPDX-License-Identifier: MIT
// Simulated-time semantics of jiffies, sleeps, busy delays and timers (exact times asserted).
#include <gtest/gtest.h>

#include "lx_test_util.h"

using namespace lx_test;
namespace lk = nicsim::lx_kit;

TEST(LxTime, UsleepRangeWakesAtMaxByDefault) {
    lx_kit_task_create("sleeper", lx_scn_usleep_range, nullptr);
    run_for(10 * ms);
    // An isolated hrtimer fires at its hard expiry: min + (max - min).
    EXPECT_EQ(events(), (std::vector<ev>{{0, 0}, {2500 * us, 1}}));
}

TEST(LxTime, UsleepRangeWakesAtMinPlusConfiguredSlack) {
    lk::params().usleep_slack_ns = 100 * us;
    lx_kit_task_create("sleeper", lx_scn_usleep_range, nullptr);
    run_for(10 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 0}, {2100 * us, 1}}));
}

TEST(LxTime, UsleepRangeOfARealTimeTaskWakesAtMin) {
    // An irq thread runs SCHED_FIFO: schedule_hrtimeout_range drops its range, whatever slack.
    lk::params().usleep_slack_ns = 100 * us;
    lx_kit_task_set_rt(lx_kit_task_create("irq/1-sleeper", lx_scn_usleep_range, nullptr), 1);
    run_for(10 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 0}, {2000 * us, 1}}));
}

TEST(LxTime, MsleepLandsOnKernelTickBoundaries) {
    // HZ=250 (4 ms ticks). At t=1 ms (jiffies 0) msleep(1) sleeps msecs_to_jiffies(1)+1 = 2
    // ticks -> wakes at the start of jiffy 2 = 8 ms. msleep(10): 3+1 = 4 ticks from jiffy 2
    // -> jiffy 6 = 24 ms.
    lx_kit_task_create("sleeper", lx_scn_msleep, nullptr);
    run_for(100 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{8 * ms, 1}, {24 * ms, 10}}));
}

TEST(LxTime, MsleepAtHz100) {
    lk::params().hz = 100; // 10 ms ticks: msleep(1) = 1+1 ticks from jiffy 0 -> 20 ms
    lx_kit_task_create("sleeper", lx_scn_msleep, nullptr);
    run_for(100 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{20 * ms, 1}, {40 * ms, 10}}));
}

TEST(LxTime, MsecsToJiffiesRoundsUp) {
    EXPECT_EQ(lx_test_msecs_to_jiffies(0), 0u);
    EXPECT_EQ(lx_test_msecs_to_jiffies(1), 1u);
    EXPECT_EQ(lx_test_msecs_to_jiffies(4), 1u);
    EXPECT_EQ(lx_test_msecs_to_jiffies(5), 2u);
    EXPECT_EQ(lx_test_msecs_to_jiffies(3000), 750u);
    EXPECT_EQ(lx_test_usecs_to_jiffies(4001), 2u);
    lk::params().hz = 1000;
    EXPECT_EQ(lx_test_msecs_to_jiffies(5), 5u);
}

TEST(LxTime, JiffiesFollowSimulatedTime) {
    EXPECT_EQ(lx_test_jiffies(), 0u);
    run_for(4 * ms - 1);
    EXPECT_EQ(lx_test_jiffies(), 0u);
    run_for(1);
    EXPECT_EQ(lx_test_jiffies(), 1u);
    run_for(400 * ms);
    EXPECT_EQ(lx_test_jiffies(), 101u);
}

TEST(LxTime, BusyDelaysAdvanceTimeAndReportBusyCpu) {
    std::vector<std::pair<uint64_t, uint64_t>> busy; // (start ns, duration ns)
    std::string task;
    lk::set_busy_hook([&](const char* name, sc_core::sc_time start, uint64_t ns) {
        task = name;
        busy.emplace_back(uint64_t(start.to_seconds() * 1e9 + 0.5), ns);
    });
    lx_kit_task_create("delayer", lx_scn_udelay, nullptr);
    run_for(10 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{5 * us, 5}, {1005 * us, 1000}, {1005300, 300}}));
    EXPECT_EQ(busy, (std::vector<std::pair<uint64_t, uint64_t>>{
                        {0, 5000}, {5000, 1000000}, {1005000, 300}}));
    EXPECT_EQ(task, "delayer");
    EXPECT_EQ(lk::busy_ns_total(), 1005300u);
}

TEST(LxTime, TimersFireOnTickStartsInExpiryOrder) {
    lx_kit_task_create("timers", lx_scn_timers, nullptr);
    run_for(100 * ms);
    // t=1 ms: timer0 +3 ticks, timer1 deleted (was pending), timer2 already due -> next tick.
    EXPECT_EQ(
        events(),
        (std::vector<ev>{{1 * ms, 101}, {1 * ms, 201}, {4 * ms, 2}, {12 * ms, 0}, {24 * ms, 300}}));
}
