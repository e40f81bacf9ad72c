// SPDX-License-Identifier: MIT
// deadline_timer (bus/common/deadline_timer.h): returns exactly when wait(timeout, event) would,
// by the event or at the deadline, also when its timer is still armed for an earlier or a later
// deadline of a previous wait.
#include <gtest/gtest.h>

#include <vector>

#include "bus/common/deadline_timer.h"

using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

sc_time ns(double v) {
    return sc_time(v, SC_NS);
}

struct result {
    bool by_event;
    sc_time at;
};

// A waiter runs a list of (deadline) waits back to back; a notifier fires the event at the
// given times.
struct bench : sc_core::sc_module {
    std::vector<sc_time> deadlines; // absolute
    std::vector<sc_time> fires;     // absolute
    std::vector<result> got;
    sc_core::sc_event ev;
    nicsim::deadline_timer timer{ev};
    SC_HAS_PROCESS(bench);
    bench(sc_core::sc_module_name n, std::vector<sc_time> d, std::vector<sc_time> f)
        : sc_module(n), deadlines(std::move(d)), fires(std::move(f)) {
        SC_THREAD(waiter);
        SC_THREAD(notifier);
    }
    void waiter() {
        for (const sc_time& d : deadlines) {
            const bool e = timer.wait_until(d);
            got.push_back({e, sc_core::sc_time_stamp()});
        }
    }
    void notifier() {
        for (const sc_time& t : fires) {
            wait(t - sc_core::sc_time_stamp());
            ev.notify(sc_core::SC_ZERO_TIME);
        }
    }
};

} // namespace

TEST(DeadlineTimer, EventBeforeTheDeadlineAndTimeoutAtItAreWhatWaitTimeoutEventGives) {
    // 1: the event at 10 ends a wait until 1000 (the timer stays armed for 1000); 2: a wait
    // until 1000 keeps that notification and times out at 1000; 3: the event at 1200 ends a wait
    // until 2000 (timer armed for 2000); 4: a wait until 5000 keeps the timer armed for 2000,
    // whose early firing must not end it; 5: the event at 5050 ends a wait until 5100; 6: a
    // wait until 5080, earlier than the timer still armed for 5100, times out at 5080.
    bench b("b", {ns(1000), ns(1000), ns(2000), ns(5000), ns(5100), ns(5080)},
            {ns(10), ns(1200), ns(5050)});
    sc_core::sc_start(ns(10000));
    const std::vector<result> want = {{true, ns(10)},    {false, ns(1000)}, {true, ns(1200)},
                                      {false, ns(5000)}, {true, ns(5050)},  {false, ns(5080)}};
    ASSERT_EQ(b.got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(b.got[i].by_event, want[i].by_event) << "wait " << i + 1;
        EXPECT_EQ(b.got[i].at, want[i].at) << "wait " << i + 1;
    }
}

TEST(DeadlineTimer, APastDeadlineReturnsAtOnceWithoutWaiting) {
    bench b("b", {ns(0)}, {});
    sc_core::sc_start(ns(100));
    ASSERT_EQ(b.got.size(), 1u);
    EXPECT_FALSE(b.got[0].by_event);
    EXPECT_EQ(b.got[0].at, ns(0));
}
