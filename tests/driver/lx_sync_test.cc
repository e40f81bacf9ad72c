// SPDX-License-Identifier: MIT
// Completions, mutexes, atomic-context checks and kthreads on simulated time.
#include <gtest/gtest.h>

#include "lx_test_util.h"

using namespace lx_test;
namespace lk = nicsim::lx_kit;

TEST(LxCompletion, TimeoutReturnsZeroAtTheDeadlineTick) {
    // msecs_to_jiffies(20) = 5 ticks from jiffy 0: returns 0 at exactly 20 ms.
    lx_kit_task_create("waiter", lx_scn_completion_timeout, nullptr);
    run_for(100 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{20 * ms, 0}}));
}

TEST(LxCompletion, EarlyCompletionReturnsRemainingJiffies) {
    // Deadline = jiffy 5; completed at 6 ms (jiffy 1): remaining 4, returned at 6 ms.
    lx_kit_task_create("waiter", lx_scn_completion_early_waiter, nullptr);
    lx_kit_task_create("completer", lx_scn_completion_early_completer, nullptr);
    run_for(100 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{6 * ms, 4}}));
}

TEST(LxCompletion, CompleteCounts) {
    // Three complete() calls let exactly three waits pass (each with the full 1 jiffy left);
    // the fourth times out at the next tick (4 ms) and returns 0.
    lx_kit_task_create("counter", lx_scn_completion_count, nullptr);
    run_for(100 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 1}, {0, 1}, {0, 1}, {4 * ms, 0}}));
}

TEST(LxMutex, HandsOffInFifoOrder) {
    // Holder owns the mutex 0..1 ms; contenders 3, 1, 2 are created in that order but arrive at
    // 300, 100, 200 us: they must get it in arrival order 1, 2, 3.
    lx_kit_task_create("holder", lx_scn_mutex_holder, nullptr);
    lx_kit_task_create("c3", lx_scn_mutex_contender, reinterpret_cast<void*>(intptr_t{3}));
    lx_kit_task_create("c1", lx_scn_mutex_contender, reinterpret_cast<void*>(intptr_t{1}));
    lx_kit_task_create("c2", lx_scn_mutex_contender, reinterpret_cast<void*>(intptr_t{2}));
    run_for(10 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 0}, {1000 * us, 1}, {1010 * us, 2}, {1020 * us, 3}}));
}

TEST(LxMutex, RealTimeReleaserOnOneCoreTakesItAgainThenHandsItOver) {
    // kernel/locking/mutex.c on one core: the real-time holder releases at 1 ms and locks again
    // before the woken normal waiter runs (it cannot preempt a real-time task), so it keeps the
    // lock; the waiter, finding it taken, sets MUTEX_FLAG_HANDOFF, and the release at 2 ms hands
    // it over. The holder's third lock waits for the waiter's release at 2010 us.
    lk::params().cores = 1;
    lx_kit_task_create("irq", lx_scn_mutex_rt_relocker, nullptr);
    lx_kit_task_create("tx", lx_scn_mutex_normal_waiter, nullptr);
    run_for(10 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 10}, {1000 * us, 11}, {2000 * us, 1}, {2010 * us, 12}}));
}

TEST(LxMutex, WithMoreCoresTheWokenWaiterGetsItAtOnce) {
    // The same tasks on two cores: the woken waiter runs on the other core at the release, so it
    // gets the lock at 1 ms and the holder's next lock waits for it.
    lk::params().cores = 2;
    lx_kit_task_create("irq", lx_scn_mutex_rt_relocker, nullptr);
    lx_kit_task_create("tx", lx_scn_mutex_normal_waiter, nullptr);
    run_for(10 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 10}, {1000 * us, 1}, {1010 * us, 11}, {2010 * us, 12}}));
}

TEST(LxMutexDeathTest, RecursiveLockStops) {
    EXPECT_EXIT(
        {
            lx_kit_task_create("rec", lx_scn_mutex_recursive, nullptr);
            run_for(1 * ms);
        },
        testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE), "recursive locking of mutex");
}

TEST(LxMutexDeathTest, UnlockByNonOwnerStops) {
    EXPECT_EXIT(
        {
            lx_kit_task_create("a", lx_scn_mutex_foreign_unlock_a, nullptr);
            lx_kit_task_create("b", lx_scn_mutex_foreign_unlock_b, nullptr);
            run_for(10 * ms);
        },
        testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE), "unlocks mutex .* it does not own");
}

TEST(LxSpinlockDeathTest, SleepingUnderSpinlockStops) {
    EXPECT_EXIT(
        {
            lx_kit_task_create("atomic", lx_scn_sleep_in_atomic, nullptr);
            run_for(10 * ms);
        },
        testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE),
        "msleep: sleeping function called from atomic");
}

TEST(LxKthread, StopEndsScheduleLoopAndTimeAdvancesInSchedule) {
    // The thread loops on kthread_should_stop() + schedule(): each schedule() yields one quantum
    // (one jiffy = 4 ms), so iterations run at 0, 4, 8 ms; kthread_stop at 10 ms wakes it and
    // returns the thread's result at once.
    lx_kit_task_create("stopper", lx_scn_kthread_stopper, nullptr);
    run_for(100 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 1}, {4 * ms, 2}, {8 * ms, 3}, {10 * ms, -1}}));
    EXPECT_EQ(lx_test_kthread_result, 42);
    EXPECT_EQ(lx_test_kthread_iterations, 3);
}

TEST(LxSpinlock, ContenderSpinsUntilHolderUnlocksAndBhHookRunsAtEnable) {
    lx_kit_task_create("holder", lx_scn_spin_holder, nullptr);
    lx_kit_task_create("contender", lx_scn_spin_contender, nullptr);
    run_for(1 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{100 * us, 77}, {100 * us, 1}, {100 * us, 2}}));
    // 100 us udelay by the holder + 90 us spinning by the contender.
    EXPECT_EQ(nicsim::lx_kit::busy_ns_total(), 190 * us);
}
