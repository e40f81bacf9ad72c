// SPDX-License-Identifier: MIT
// The CPU time of kernel work the emulation runs natively: driver code by its basic blocks
// (counted through -fsanitize-coverage=trace-pc), context switches and wake-up latencies, charged
// through lx_kit's cpu hook at the right moment and without losing a wake-up meanwhile.
#include <gtest/gtest.h>

#include "lx_test_util.h"

using namespace lx_test;
namespace lk = nicsim::lx_kit;
using sc_core::sc_time;

namespace {

// A cpu hook that only lets the time pass (as the board's host_cpu does on an idle core) and
// records what it was given.
std::vector<uint64_t>& charges() {
    static std::vector<uint64_t> c;
    return c;
}
void install_time_passing_hook() {
    lk::set_cpu_hook([](uint64_t ps) {
        charges().push_back(ps);
        sc_core::wait(sc_time::from_value(ps * sc_time(1, sc_core::SC_PS).value()));
    });
}

uint64_t sum(const std::vector<uint64_t>& v) {
    uint64_t s = 0;
    for (uint64_t x : v)
        s += x;
    return s;
}

} // namespace

TEST(LxCpuCost, DriverBlocksAreCountedAndChargedBeforeTheTaskSleeps) {
    lk::params().ps_per_block = 10'000; // 10 ns per block
    install_time_passing_hook();
    const uint64_t before = lk::cpu_accounts().driver_blocks;
    lx_kit_task_create("burner", lx_scn_cpu_burn_then_sleep, reinterpret_cast<void*>(5000));
    run_for(1 * ms);
    const lk::cpu_accounting& a = lk::cpu_accounts();
    const uint64_t blocks = a.driver_blocks - before;
    // At least one block per loop iteration, and not wildly more (the loop and the call).
    EXPECT_GE(blocks, 5000u);
    EXPECT_LT(blocks, 5100u);
    EXPECT_EQ(a.driver_code_ps, blocks * 10'000);
    ASSERT_FALSE(charges().empty());
    // The sleep starts after the code's CPU time: the record comes 1 us after it, plus the
    // context switch back in (none configured here).
    ASSERT_EQ(events().size(), 1u);
    EXPECT_EQ(events()[0].first, blocks * 10 + 1000);
}

TEST(LxCpuCost, NoHookOrNoCostLeavesTimeAlone) {
    lx_kit_task_create("burner", lx_scn_cpu_burn_then_sleep, reinterpret_cast<void*>(5000));
    run_for(1 * ms);
    ASSERT_EQ(events().size(), 1u);
    EXPECT_EQ(events()[0].first, 1000u);
    EXPECT_GE(lk::cpu_accounts().driver_blocks, 5000u); // counted all the same
    EXPECT_EQ(lk::cpu_accounts().driver_code_ps, 0u);
}

// The waiter's code costs 50 us of CPU; the completion comes 10 us into that. In the kernel the
// waiter is still running then, so it must not sleep: before the fix the wake-up was lost while
// the charge waited, and the waiter blocked forever.
TEST(LxCpuCost, AWakeUpDuringTheChargeIsNotLost) {
    lk::params().ps_per_block = 10'000;
    install_time_passing_hook();
    lx_scn_cpu_init();
    lx_kit_task_create("waiter", lx_scn_cpu_burn_then_wait, reinterpret_cast<void*>(5000));
    lx_kit_task_create("completer", lx_scn_cpu_complete_at, reinterpret_cast<void*>(10 * us));
    run_for(1 * ms);
    const auto e = events();
    ASSERT_EQ(e.size(), 2u) << "the waiter never came back";
    EXPECT_EQ(e[0], (ev{10 * us, 2}));
    EXPECT_EQ(e[1].second, 1);
    EXPECT_GE(e[1].first, 50 * us); // after its own code's time
    EXPECT_LT(e[1].first, 52 * us);
    EXPECT_EQ(lk::cpu_accounts().context_switches, 0u); // it never slept
}

// A woken task runs again after the drawn wake-up latency, of which the context switch is the
// CPU part; a switch longer than the latency delays it further.
TEST(LxCpuCost, AWokenTaskPaysTheWakeUpLatencyAndTheContextSwitch) {
    install_time_passing_hook();
    lk::params().context_switch_ns = 3000;
    lk::params().wakeup_latency_sample = [] { return uint64_t{7000}; };
    lx_scn_cpu_init();
    lx_kit_task_create("waiter", lx_scn_cpu_burn_then_wait, reinterpret_cast<void*>(1));
    lx_kit_task_create("completer", lx_scn_cpu_complete_at, reinterpret_cast<void*>(100 * us));
    run_for(1 * ms);
    const auto e = events();
    ASSERT_EQ(e.size(), 2u);
    // The completer's timer wake-up switches it in first (3 us); the waiter then runs 7 us after
    // the completion, 3 us of it its own switch.
    EXPECT_EQ(e[0], (ev{103 * us, 2}));
    EXPECT_EQ(e[1], (ev{110 * us, 1}));
    EXPECT_EQ(lk::cpu_accounts().context_switches, 2u);
    EXPECT_EQ(lk::cpu_accounts().context_switch_ps, 6'000'000u);
    EXPECT_EQ(sum(charges()), 6'000'000u);
}

TEST(LxCpuCost, AContextSwitchLongerThanTheLatencyDelaysTheTask) {
    install_time_passing_hook();
    lk::params().context_switch_ns = 9000;
    lk::params().wakeup_latency_sample = [] { return uint64_t{2000}; };
    lx_scn_cpu_init();
    lx_kit_task_create("waiter", lx_scn_cpu_burn_then_wait, reinterpret_cast<void*>(1));
    lx_kit_task_create("completer", lx_scn_cpu_complete_at, reinterpret_cast<void*>(100 * us));
    run_for(1 * ms);
    ASSERT_EQ(events().size(), 2u);
    EXPECT_EQ(events()[0], (ev{109 * us, 2})); // the completer's own switch
    EXPECT_EQ(events()[1], (ev{118 * us, 1})); // 9 us switch > 2 us latency
}

// A timed sleep that runs out draws no latency; a wake-up by another task draws one.
TEST(LxCpuCost, OnlyAWakeUpByAnotherTaskDrawsALatency) {
    static uint64_t draws = 0;
    lk::params().wakeup_latency_sample = [] { return (++draws) * 1000; };
    lx_kit_task_create("sleeper", lx_scn_cpu_burn_then_sleep, reinterpret_cast<void*>(1));
    run_for(1 * ms);
    // A timed sleep that runs out is no wake-up by another task: no latency drawn.
    ASSERT_EQ(events().size(), 1u);
    EXPECT_EQ(events()[0].first, 1000u);
    EXPECT_EQ(draws, 0u);
    lx_scn_cpu_init();
    lx_kit_task_create("waiter", lx_scn_cpu_burn_then_wait, reinterpret_cast<void*>(1));
    lx_kit_task_create("completer", lx_scn_cpu_complete_at, reinterpret_cast<void*>(1100 * us));
    run_for(1 * ms);
    EXPECT_EQ(draws, 1u);
    EXPECT_EQ(events().back(), (ev{1101 * us, 1}));
}
