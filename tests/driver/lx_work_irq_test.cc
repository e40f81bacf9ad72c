// SPDX-License-Identifier: MIT
// Workqueue pending/running/flush semantics and threaded ONESHOT interrupts (edge and level).
#include <gtest/gtest.h>

#include "lx_test_util.h"

using namespace lx_test;
using namespace sc_core;
namespace lk = nicsim::lx_kit;

TEST(LxWorkqueue, PendingRunningAndFlush) {
    lx_kit_task_create("queuer", lx_scn_work_pending, nullptr);
    run_for(20 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 1},
                                         {0, 0},         // already pending: not queued again
                                         {0, 1001},      // first run starts
                                         {500 * us, 10}, // running, no longer pending
                                         {500 * us, 1},  // so it can be queued again
                                         {1 * ms, 1002}, // second run right after the first
                                         {2 * ms, 21},   // flush_work waited for it
                                         {2 * ms, 30},   // idle: flush_work returns false
                                         {2 * ms, 40}}));
    EXPECT_EQ(lx_test_work_runs, 2);
}

TEST(LxWorkqueue, OrderedQueueSerialisesSystemQueueRunsConcurrently) {
    lx_kit_task_create("queuer", lx_scn_work_ordered, nullptr);
    run_for(20 * ms);
    EXPECT_EQ(
        events(),
        (std::vector<ev>{{0, 2}, {1 * ms, 3}, {2 * ms, 4}, {2 * ms, 2}, {2 * ms, 3}, {3 * ms, 5}}));
}

namespace {

// A scripted interrupt line: level changes at given times.
class scripted_line : public lk::irq_source {
  public:
    explicit scripted_line(std::vector<std::pair<uint64_t, bool>> script) : script_(script) {
        sc_spawn([this] {
            uint64_t now = 0;
            for (auto [t, v] : script_) {
                wait(sc_time(double(t - now), SC_NS));
                now = t;
                level_ = v;
                ev_.notify(SC_ZERO_TIME);
            }
        });
    }
    bool level() const override { return level_; }
    const sc_event& changed() const override { return ev_; }

  private:
    std::vector<std::pair<uint64_t, bool>> script_;
    bool level_ = true; // idle high (active-low line)
    sc_event ev_;
};

} // namespace

TEST(LxIrq, FallingEdgeOneshotRerunsOnceForEdgesDuringHandler) {
    // Edge at 1 ms starts the thread (1 ms long); three more falling edges at 1.3/1.5/1.7 ms
    // collapse into ONE pending edge, which runs the handler once more at 2 ms. Nothing after.
    scripted_line line({{1 * ms, false},
                        {1100 * us, true},
                        {1300 * us, false},
                        {1400 * us, true},
                        {1500 * us, false},
                        {1600 * us, true},
                        {1700 * us, false},
                        {1800 * us, true}});
    lk::register_irq(7, line);
    lx_kit_task_create("probe", lx_scn_irq_request,
                       reinterpret_cast<void*>(uintptr_t{lx_test_irqf_falling_oneshot()}));
    run_for(20 * ms);
    EXPECT_EQ(lx_test_irq_request_rc, 0);
    EXPECT_EQ(events(), (std::vector<ev>{{1 * ms, 1000}, {2 * ms, 1001}}));
    EXPECT_EQ(lx_test_irq_runs(), 2u);
}

TEST(LxIrq, LevelLowOneshotRerunsWhileLineStaysActive) {
    // Low from 1 ms to 2.5 ms; each run takes 1 ms: runs at 1 ms and 2 ms (still low when the
    // first returned), not at 3 ms (high by then).
    scripted_line line({{1 * ms, false}, {2500 * us, true}});
    lk::register_irq(7, line);
    lx_kit_task_create("probe", lx_scn_irq_request,
                       reinterpret_cast<void*>(uintptr_t{lx_test_irqf_low_oneshot()}));
    run_for(20 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{1 * ms, 1000}, {2 * ms, 1001}}));
}

TEST(LxIrq, LatencyDelaysThreadStart) {
    lk::params().irq_latency_ns = 25 * us;
    scripted_line line({{1 * ms, false}, {1500 * us, true}});
    lk::register_irq(7, line);
    lx_kit_task_create("probe", lx_scn_irq_request,
                       reinterpret_cast<void*>(uintptr_t{lx_test_irqf_low_oneshot()}));
    run_for(20 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{1025 * us, 1000}}));
}

TEST(LxIrq, LineStillActiveRerunsTheRunningThreadWithoutTheLatency) {
    // Low from 1 ms to 2.5 ms, 25 us IRQ-to-thread latency: the first run starts 25 us late and
    // ends at 2025 us with the line still low. The thread is running, so it runs again at once
    // (irq_thread: IRQTF_RUNTHREAD), with no second latency: at 2025 us, not 2050 us.
    lk::params().irq_latency_ns = 25 * us;
    scripted_line line({{1 * ms, false}, {2500 * us, true}});
    lk::register_irq(7, line);
    lx_kit_task_create("probe", lx_scn_irq_request,
                       reinterpret_cast<void*>(uintptr_t{lx_test_irqf_low_oneshot()}));
    run_for(20 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{1025 * us, 1000}, {2025 * us, 1001}}));
}

TEST(LxIrq, RequestWithoutTriggerFlagsKeepsTheBoardsConfiguredFallingEdge) {
    // The board's device tree configures the line falling-edge (enc28j60: request_irq flags 0).
    // Low from 1 ms to 3.5 ms, each run 1 ms: one run at 1 ms only. A level-low trigger would run
    // again at 2 ms and 3 ms; the default level-high one at 0 and from 3.5 ms.
    scripted_line line({{1 * ms, false}, {3500 * us, true}});
    lk::register_irq(7, line, LX_KIT_IRQ_EDGE_FALLING);
    EXPECT_EQ(lx_test_irq_trigger_type(), LX_KIT_IRQ_EDGE_FALLING);
    lx_kit_task_create("probe", lx_scn_irq_request,
                       reinterpret_cast<void*>(uintptr_t{lx_test_irqf_oneshot()}));
    run_for(20 * ms);
    EXPECT_EQ(lx_test_irq_request_rc, 0);
    EXPECT_EQ(events(), (std::vector<ev>{{1 * ms, 1000}}));
}

TEST(LxIrq, RequestWithoutRegisteredSourceFails) {
    lx_kit_task_create("probe", lx_scn_irq_request,
                       reinterpret_cast<void*>(uintptr_t{lx_test_irqf_low_oneshot()}));
    run_for(1 * ms);
    EXPECT_EQ(lx_test_irq_request_rc, -22); // -EINVAL, with an error line naming the irq
    EXPECT_EQ(lk::log_count(3), 1u);
}
